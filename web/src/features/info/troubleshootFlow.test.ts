// @vitest-environment node
import { describe, expect, it } from 'vitest';
import en from '../../locales/en/info.json';
import ja from '../../locales/ja/info.json';
import { QUESTIONS, START, answersOf, back, choose, initialWizard, isQuestion, reachable, restart, skipKnown, type AnswerId, type StepId } from './troubleshootFlow';

const walk = (...answers: AnswerId[]) => answers.reduce(choose, initialWizard);
const questionIds = Object.keys(QUESTIONS) as (keyof typeof QUESTIONS)[];
const fixIds = [...new Set(questionIds.flatMap((q) => answersOf(q).map((a) => a.next)))].filter((id) => !isQuestion(id));

describe('troubleshooting flow', () => {
  it('starts at "what is the problem?"', () => {
    expect(initialWizard).toEqual({ answered: [], at: 'symptom' });
    expect(START).toBe('symptom');
  });

  it('walks the notification path step by step: iPhone → home screen → permission → subscription → worker → focus → test', () => {
    const steps: [AnswerId, StepId][] = [
      ['noNotifications', 'iosDevice'],
      ['yes', 'homeScreen'],
      ['yes', 'permission'],
      ['allowed', 'subscribed'],
      ['yes', 'serviceWorker'],
      ['yes', 'focus'],
      ['no', 'testShown'],
      ['no', 'systemSettings'],
    ];
    let s = initialWizard;
    for (const [answer, next] of steps) {
      s = choose(s, answer);
      expect(s.at).toBe(next);
    }
    expect(s.answered.map((a) => a.question)).toEqual(['symptom', 'iosDevice', 'homeScreen', 'permission', 'subscribed', 'serviceWorker', 'focus', 'testShown']);
  });

  it.each<[AnswerId[], StepId]>([
    [['noNotifications', 'yes', 'no'], 'addToHomeScreen'],
    [['noNotifications', 'no', 'notAsked'], 'enable'],
    [['noNotifications', 'no', 'blocked'], 'unblock'],
    [['noNotifications', 'no', 'allowed', 'no'], 'enable'],
    [['noNotifications', 'no', 'allowed', 'stopped'], 'resubscribe'],
    [['noNotifications', 'no', 'unsupported'], 'otherBrowser'],
    [['noNotifications', 'no', 'allowed', 'yes', 'no'], 'reload'],
    [['noNotifications', 'no', 'allowed', 'yes', 'yes', 'yes'], 'focusOff'],
    [['noNotifications', 'no', 'allowed', 'yes', 'yes', 'no', 'yes'], 'deviceWorks'],
    [['late', 'yes'], 'batterySaver'],
    [['late', 'no'], 'checkTime'],
    [['noEmail', 'no'], 'checkSpam'],
    [['noEmail', 'yes'], 'resendLater'],
  ])('%j leads to the fix %s', (answers, fix) => {
    const s = walk(...answers);
    expect(s.at).toBe(fix);
    expect(isQuestion(s.at)).toBe(false);
  });

  it('an answer the question does not have, or any answer at a fix, changes nothing', () => {
    expect(choose(initialWizard, 'allowed')).toBe(initialWizard);
    const atFix = walk('noEmail', 'no');
    expect(choose(atFix, 'yes')).toBe(atFix);
  });

  it('back unanswers the last question; restart goes to the start; back at the start stays', () => {
    const s = walk('noNotifications', 'no', 'blocked');
    expect(back(s)).toEqual({ answered: [{ question: 'symptom', answer: 'noNotifications' }, { question: 'iosDevice', answer: 'no' }], at: 'permission' });
    expect(back(back(back(s)))).toEqual(initialWizard);
    expect(back(initialWizard)).toBe(initialWizard);
    expect(restart()).toEqual(initialWizard);
  });

  it('every question and fix is reachable, every answer leads somewhere that exists, and there are no loops', () => {
    const seen = reachable();
    expect([...questionIds, ...fixIds].filter((id) => !seen.has(id))).toEqual([]);
    // no loops: a walk never meets a question twice (depth-first over every path)
    const visit = (id: StepId, path: string[]): void => {
      expect(path).not.toContain(id);
      if (isQuestion(id)) for (const a of answersOf(id)) visit(a.next, [...path, id]);
    };
    visit(START, []);
  });

  it('every question, answer and fix has its texts in both languages', () => {
    for (const dict of [en, ja]) {
      const tr = dict.guide.troubleshooting as unknown as {
        questions: Record<string, string>;
        answers: Record<string, string>;
        fixes: Record<string, { title: string; steps: string[] }>;
      };
      for (const q of questionIds) {
        expect(tr.questions[q], q).toBeTruthy();
        for (const a of answersOf(q)) expect(tr.answers[a.answer], a.answer).toBeTruthy();
      }
      for (const f of fixIds) {
        expect(tr.fixes[f]?.title, f).toBeTruthy();
        expect(tr.fixes[f]?.steps.length, f).toBeGreaterThan(0);
      }
    }
  });
});

describe('the wizard does not ask what the app knows', () => {
  it('answers the known questions for the person, marked known, and stops at the first unknown one', () => {
    const s = skipKnown(choose(initialWizard, 'noNotifications'), { iosDevice: 'no', permission: 'allowed' });
    expect(s.at).toBe('subscribed');
    expect(s.answered).toEqual([
      { question: 'symptom', answer: 'noNotifications' },
      { question: 'iosDevice', answer: 'no', known: true },
      { question: 'permission', answer: 'allowed', known: true },
    ]);
  });
  it('granted but never set up goes straight to "turn notifications on", not to "register again"', () => {
    const s = skipKnown(choose(initialWizard, 'noNotifications'), { iosDevice: 'no', permission: 'allowed', subscribed: 'no' });
    expect(s.at).toBe('enable');
    const stopped = skipKnown(choose(initialWizard, 'noNotifications'), { iosDevice: 'no', permission: 'allowed', subscribed: 'stopped' });
    expect(stopped.at).toBe('resubscribe');
  });
  it('back skips over the known answers to the last question the person answered', () => {
    const s = skipKnown(choose(initialWizard, 'noNotifications'), { iosDevice: 'no', permission: 'blocked' });
    expect(s.at).toBe('unblock');
    expect(back(s)).toEqual(initialWizard);
  });
  it('nothing known, nothing skipped; the symptom is always asked', () => {
    expect(skipKnown(initialWizard, { iosDevice: 'no' })).toEqual(initialWizard);
    const s = choose(initialWizard, 'noNotifications');
    expect(skipKnown(s, {})).toEqual(s);
  });
});
