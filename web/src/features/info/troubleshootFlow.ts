/**
 * The guide's troubleshooting wizard as data: each question's answers lead to the next
 * question or to a fix (a concrete step). Texts: info `guide.wizard.questions.<id>`,
 * `guide.wizard.answers.<answer>` and `guide.wizard.fixes.<id>`.
 */
export const QUESTIONS = {
  symptom: { answers: { noNotifications: 'iosDevice', late: 'lateWhenOpen', noEmail: 'spamFolder' } },
  iosDevice: { answers: { yes: 'homeScreen', no: 'permission' } },
  homeScreen: { answers: { yes: 'permission', no: 'addToHomeScreen' } },
  permission: { answers: { allowed: 'subscribed', notAsked: 'enable', blocked: 'unblock' } },
  subscribed: { answers: { yes: 'serviceWorker', no: 'resubscribe' } },
  serviceWorker: { answers: { yes: 'focus', no: 'reload' } },
  focus: { answers: { yes: 'focusOff', no: 'testShown' } },
  testShown: { answers: { yes: 'deviceWorks', no: 'systemSettings' } },
  lateWhenOpen: { answers: { yes: 'batterySaver', no: 'checkTime' } },
  spamFolder: { answers: { yes: 'resendLater', no: 'checkSpam' } },
} as const satisfies Record<string, { answers: Record<string, string> }>;

export type QuestionId = keyof typeof QUESTIONS;
type AnswersOf<Q extends QuestionId> = (typeof QUESTIONS)[Q]['answers'];
type Targets = { [Q in QuestionId]: AnswersOf<Q>[keyof AnswersOf<Q>] }[QuestionId];
export type FixId = Exclude<Targets, QuestionId>;
export type AnswerId = { [Q in QuestionId]: keyof AnswersOf<Q> }[QuestionId];
export type StepId = QuestionId | FixId;

export const START: QuestionId = 'symptom';

export function isQuestion(id: StepId): id is QuestionId {
  return id in QUESTIONS;
}

/** The answers of a question, in the order shown, each with where it leads. */
export function answersOf(q: QuestionId): { answer: AnswerId; next: StepId }[] {
  return Object.entries(QUESTIONS[q].answers).map(([answer, next]) => ({ answer: answer as AnswerId, next: next as StepId }));
}

/** The wizard's state: the questions answered so far, and where that led. */
export interface WizardState {
  answered: { question: QuestionId; answer: AnswerId }[];
  at: StepId;
}

export const initialWizard: WizardState = { answered: [], at: START };

/** Answers the current question; an answer it does not have changes nothing. */
export function choose(state: WizardState, answer: AnswerId): WizardState {
  if (!isQuestion(state.at)) return state;
  const next = answersOf(state.at).find((a) => a.answer === answer)?.next;
  if (!next) return state;
  return { answered: [...state.answered, { question: state.at, answer }], at: next };
}

/** One step back: the last question, unanswered again. */
export function back(state: WizardState): WizardState {
  const last = state.answered.at(-1);
  if (!last) return state;
  return { answered: state.answered.slice(0, -1), at: last.question };
}

export function restart(): WizardState {
  return initialWizard;
}

/** Every step reachable from the start (for the tests: no orphan, every fix reached). */
export function reachable(): Set<StepId> {
  const seen = new Set<StepId>();
  const queue: StepId[] = [START];
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    if (isQuestion(id)) queue.push(...answersOf(id).map((a) => a.next));
  }
  return seen;
}
