import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { answersOf, back, choose, initialWizard, isQuestion, restart, type QuestionId, type StepId, type WizardState } from './troubleshootFlow';

const T = 'guide.troubleshooting';

/**
 * Troubleshooting, one question at a time: each answer leads to the next question or to a fix
 * with its concrete steps. After every move the focus goes to the new step's heading, so a
 * keyboard or screen-reader user carries on from there.
 */
export function TroubleshootingWizard({
  actions = {},
  hints = {},
}: {
  /** a control shown with a step (enable notifications, send a test) */
  actions?: Partial<Record<StepId, ReactNode>>;
  /** what this device reports for a question, e.g. "This device: Allowed" */
  hints?: Partial<Record<QuestionId, string>>;
}) {
  const { t } = useTranslation('info');
  const [state, setState] = useState<WizardState>(initialWizard);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const headingId = useId();

  useEffect(() => {
    if (moved.current) heading.current?.focus();
  }, [state]);
  const go = (next: WizardState) => {
    moved.current = true;
    setState(next);
  };

  const at = state.at;
  return (
    <div className="wizard">
      <p>{t(`${T}.intro`)}</p>
      {state.answered.length > 0 && (
        <section className="wizard-trail" aria-label={t(`${T}.yourAnswers`)}>
          <h3 className="small muted">{t(`${T}.yourAnswers`)}</h3>
          <ol>
            {state.answered.map(({ question, answer }) => (
              <li key={question}>
                <span className="muted">{t(`${T}.questions.${question}`)}</span> <strong>{t(`${T}.answers.${answer}`)}</strong>
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
              {t(`${T}.fixes.${at}.title`)}
            </h3>
            <ol className="wizard-fix-steps">
              {(t(`${T}.fixes.${at}.steps`, { returnObjects: true }) as string[]).map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
            {actions[at] && <div className="row">{actions[at]}</div>}
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
