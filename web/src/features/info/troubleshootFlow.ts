/**
 * The guide's troubleshooting wizard as data: each question's answers lead to the next
 * question or to a fix (a concrete step). Texts: info `guide.wizard.questions.<id>`,
 * `guide.wizard.answers.<answer>` and `guide.wizard.fixes.<id>`.
 */
export const QUESTIONS = {
  symptom: { answers: { noNotifications: 'iosDevice', late: 'lateWhenOpen', noEmail: 'spamFolder' } },
  iosDevice: { answers: { yes: 'homeScreen', no: 'permission' } },
  homeScreen: { answers: { yes: 'permission', no: 'addToHomeScreen' } },
  permission: { answers: { allowed: 'subscribed', notAsked: 'enable', blocked: 'unblock', unsupported: 'otherBrowser' } },
  subscribed: { answers: { yes: 'serviceWorker', no: 'enable', stopped: 'resubscribe' } },
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

/** The wizard's state: the questions answered so far (`known`: by the app, from this device), and where that led. */
export interface WizardState {
  answered: { question: QuestionId; answer: AnswerId; known?: true }[];
  at: StepId;
}

/** What the app already knows about this device: the answers it need not ask for. */
export type KnownAnswers = Partial<Record<QuestionId, AnswerId>>;

/**
 * The wizard does not ask what the app already knows: from where it is, every question whose
 * answer is known is answered (marked known) until one is not, or a fix is reached.
 */
export function skipKnown(state: WizardState, known: KnownAnswers): WizardState {
  let s = state;
  while (isQuestion(s.at)) {
    const answer = known[s.at];
    const next = answer && answersOf(s.at).find((a) => a.answer === answer)?.next;
    if (!answer || !next) break;
    s = { answered: [...s.answered, { question: s.at, answer, known: true }], at: next };
  }
  return s;
}

export const initialWizard: WizardState = { answered: [], at: START };

/** Answers the current question; an answer it does not have changes nothing. */
export function choose(state: WizardState, answer: AnswerId): WizardState {
  if (!isQuestion(state.at)) return state;
  const next = answersOf(state.at).find((a) => a.answer === answer)?.next;
  if (!next) return state;
  return { answered: [...state.answered, { question: state.at, answer }], at: next };
}

/** One step back: the last question the person answered, unanswered again (answers the app knew go with it). */
export function back(state: WizardState): WizardState {
  if (state.answered.length === 0) return state;
  const answered = [...state.answered];
  let last = answered.pop()!;
  while (last.known && answered.length > 0) last = answered.pop()!;
  return { answered, at: last.question };
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
