import { useTranslation } from 'react-i18next';
import type { EscalateTo, Member } from '../../../lib/types';
import type { FormSectionProps } from './RepeatOptions';
import { ESCALATE_TO, MAX_ESCALATION_STEPS, nextEscalation, type EscalationForm } from '../reminderLogic';

/** What the escalation steps need to know of the list: its other people (none: not shared) and their names. */
export interface EscalationPeople {
  others: readonly Member[];
  nameOf: (id: string) => string | null;
}

/**
 * Repeat until done's "If it is still not done" (decisions.md "Reach and rhythm"): up to 3
 * steps, each "after N unanswered repeats" (1..the repeats there are) → email me, my channels,
 * or a member of the list (offered only when the list has other people). The server's refusal of
 * `repeat_until_done.escalate` shows under the steps.
 */
export function EscalationFields({ id, form, setForm, err, described, people }: FormSectionProps & { people: EscalationPeople }) {
  const { t } = useTranslation('reminders');
  const steps = form.escalate;
  const times = Array.from({ length: Math.max(1, form.repeatTimes) }, (_, i) => i + 1);
  const update = (i: number, change: Partial<EscalationForm>) =>
    setForm((f) => ({ ...f, escalate: f.escalate.map((s, j) => (j === i ? { ...s, ...change } : s)) }));
  // To a member: the only other person is chosen at once.
  const toChanged = (i: number, to: EscalateTo) =>
    update(i, to === 'member' && people.others.length === 1 && !steps[i]?.memberId ? { to, memberId: people.others[0]!.user_id } : { to });
  const invalid = described('escalate') as { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
  const describedBy = [`${id}-hint`, invalid['aria-describedby']].filter(Boolean).join(' ');
  // A member step of a list whose people are not known yet keeps its member.
  const memberOptions = (s: EscalationForm) =>
    s.memberId && !people.others.some((m) => m.user_id === s.memberId)
      ? [...people.others, { user_id: s.memberId, email: people.nameOf(s.memberId) ?? t('escalate.someone') }]
      : people.others;

  return (
    <fieldset className="escalation" aria-describedby={describedBy}>
      <legend>{t('escalate.label')}</legend>
      <p id={`${id}-hint`} className="hint">
        {t('escalate.hint', { max: MAX_ESCALATION_STEPS })}
      </p>
      {steps.length > 0 && (
        <ol className="escalation-steps">
          {steps.map((s, i) => {
            const n = i + 1;
            const sid = `${id}-${n}`;
            const offered = ESCALATE_TO.filter((to) => to !== 'member' || people.others.length > 0 || s.to === 'member');
            return (
              <li key={i}>
                <div role="group" className="escalation-step" aria-labelledby={`${sid}-name`}>
                  <div className="escalation-step-head">
                    <span id={`${sid}-name`} className="escalation-step-name">
                      {t('escalate.step', { n })}
                    </span>
                    <button type="button" className="button small secondary" onClick={() => setForm((f) => ({ ...f, escalate: f.escalate.filter((_, j) => j !== i) }))}>
                      {t('escalate.remove', { n })}
                    </button>
                  </div>
                  <div className="grid-2">
                    <div>
                      <label htmlFor={`${sid}-after`}>{t('escalate.after')}</label>
                      <select id={`${sid}-after`} value={s.after} onChange={(e) => update(i, { after: Number(e.target.value) })} {...invalid}>
                        {times.map((k) => (
                          <option key={k} value={k}>
                            {t('escalate.afterTimes', { count: k })}
                          </option>
                        ))}
                      </select>
                    </div>
                    <div>
                      <label htmlFor={`${sid}-to`}>{t('escalate.to')}</label>
                      <select id={`${sid}-to`} value={s.to} onChange={(e) => toChanged(i, e.target.value as EscalateTo)}>
                        {offered.map((to) => (
                          <option key={to} value={to}>
                            {t(`escalate.toOption.${to}`)}
                          </option>
                        ))}
                      </select>
                    </div>
                  </div>
                  {s.to === 'member' && (
                    <>
                      <label htmlFor={`${sid}-member`}>{t('escalate.member')}</label>
                      <select
                        id={`${sid}-member`}
                        value={s.memberId}
                        onChange={(e) => update(i, { memberId: e.target.value })}
                        aria-invalid={invalid['aria-invalid'] && !s.memberId ? true : undefined}
                        aria-describedby={invalid['aria-describedby']}
                      >
                        <option value="" disabled>
                          {t('escalate.memberChoose')}
                        </option>
                        {memberOptions(s).map((m) => (
                          <option key={m.user_id} value={m.user_id}>
                            {m.email}
                          </option>
                        ))}
                      </select>
                    </>
                )}
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {err('escalate')}
      {steps.length >= MAX_ESCALATION_STEPS ? (
        <p className="hint">{t('escalate.full')}</p>
      ) : (
        <button type="button" className="button small secondary" onClick={() => setForm((f) => ({ ...f, escalate: [...f.escalate, nextEscalation(f)] }))}>
          {t('escalate.add')}
        </button>
      )}
    </fieldset>
  );
}
