import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pointerContext } from '../../lib/platform';
import {
  answersOf,
  back,
  choose,
  initialWizard,
  isQuestion,
  restart,
  skipKnown,
  type KnownAnswers,
  type QuestionId,
  type StepId,
  type WizardState,
} from './troubleshootFlow';

const T = 'guide.troubleshooting';

/** The fix shown instead of "turn on" or "register again" once enabling has failed here: a diagnosis, never "press it again". */
export type WizardFix = StepId | 'enableFailed';

/**
 * Troubleshooting, one question at a time: each answer leads to the next question or to a fix
 * with its concrete steps. It does not ask what the app already knows (`known`): those questions
 * are answered for the person, shown in the trail with what this device reports. After every
 * move the focus goes to the new step's heading, so a keyboard or screen-reader user carries on
 * from there.
 */
export function TroubleshootingWizard({
  actions = {},
  hints = {},
  known = {},
  enableFailed = false,
}: {
  /** a control shown with a step (enable notifications, send a test, the safety net) */
  actions?: Partial<Record<WizardFix, ReactNode>>;
  /** what this device reports for a question, e.g. "This device: Allowed" */
  hints?: Partial<Record<QuestionId, string>>;
  /** the answers the app knows from this device: not asked */
  known?: KnownAnswers;
  /** enabling failed here: "turn on" and "register again" become the diagnosis */
  enableFailed?: boolean;
}) {
  const { t } = useTranslation('info');
  const [asked, setState] = useState<WizardState>(initialWizard);
  const state = skipKnown(asked, known);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const headingId = useId();

  useEffect(() => {
    if (moved.current) heading.current?.focus();
  }, [asked]);
  const go = (next: WizardState) => {
    moved.current = true;
    setState(next);
  };

  const at = state.at;
  const fix: WizardFix = enableFailed && (at === 'enable' || at === 'resubscribe') ? 'enableFailed' : at;
  return (
    <div className="wizard">
      <p>{t(`${T}.intro`)}</p>
      {state.answered.length > 0 && (
        <section className="wizard-trail" aria-label={t(`${T}.yourAnswers`)}>
          <h3 className="small muted">{t(`${T}.yourAnswers`)}</h3>
          <ol>
            {state.answered.map(({ question, answer, known: fromDevice }) => (
              <li key={question} data-known={fromDevice ? 'true' : undefined}>
                <span className="muted">{t(`${T}.questions.${question}`)}</span>{' '}
                {fromDevice && hints[question] ? <strong>{hints[question]}</strong> : <strong>{t(`${T}.answers.${answer}`)}</strong>}
                {fromDevice && <span className="badge known-badge">{t(`${T}.known`)}</span>}
              </li>
            ))}
          </ol>
        </section>
      )}
      <section className="card wizard-step" aria-labelledby={headingId}>
        {isQuestion(at) ? (
          <>
            <p className="muted small">{t(`${T}.stepLabel`, { n: state.answered.length + 1 })}</p>
            <h3 id={headingId} ref={heading} tabIndex={-1}>
              {t(`${T}.questions.${at}`)}
            </h3>
            {hints[at] && <p className="hint">{hints[at]}</p>}
            {actions[at] && <div className="row">{actions[at]}</div>}
            <div className="wizard-answers" role="group" aria-labelledby={headingId}>
              {answersOf(at).map(({ answer }) => (
                <button key={answer} type="button" className="button secondary" onClick={() => go(choose(state, answer))}>
                  {t(`${T}.answers.${answer}`)}
                </button>
              ))}
            </div>
          </>
        ) : (
          <>
            <p className="muted small">{t(`${T}.fixLabel`)}</p>
            <h3 id={headingId} ref={heading} tabIndex={-1}>
              {t(`${T}.fixes.${fix}.title`)}
            </h3>
            <ol className="wizard-fix-steps">
              {(t(`${T}.fixes.${fix}.steps`, { returnObjects: true, context: pointerContext() }) as string[]).map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
            {actions[at] && <div className="row">{actions[at]}</div>}
            {fix !== at && actions[fix]}
            <p className="hint">{t(`${T}.stillStuck`)}</p>
          </>
        )}
        <div className="row wizard-nav">
          <button type="button" className="button small ghost" disabled={state.answered.length === 0} onClick={() => go(back(state))}>
            {t(`${T}.back`)}
          </button>
          <button type="button" className="button small ghost" disabled={state.answered.length === 0} onClick={() => go(restart())}>
            {t(`${T}.restart`)}
          </button>
        </div>
      </section>
    </div>
  );
}
