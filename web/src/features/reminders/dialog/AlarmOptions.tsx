import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Dates } from '../../../shared/useDates';
import { alertText } from '../alarmText';
import { EscalationFields, type EscalationPeople } from './EscalationFields';
import { pastAlertId, PastAlertWarnings } from './PastAlertWarnings';
import type { PastAlerts } from './pastAlerts';
import type { FormSectionProps } from './RepeatOptions';
import { ALERT_PRESETS, MAX_ALERTS_BEFORE, REPEAT_EVERY_CHOICES, REPEAT_TIMES_MAX, withRepeatTimes } from '../reminderLogic';

const TIMES = Array.from({ length: REPEAT_TIMES_MAX }, (_, i) => i + 1);

/**
 * The reminder dialog's "Alerts and repeat until done", for one-time and repeating reminders:
 * alerts before the time (chosen from presets, shown as removable chips) and nagging, with where
 * it goes further when the repeats stay unanswered (escalation).
 */
export function AlarmOptions({
  id,
  form,
  setForm,
  err,
  described,
  past,
  dates,
  people,
}: FormSectionProps & { past: PastAlerts | null; dates: Dates; people: EscalationPeople }) {
  const { t } = useTranslation('reminders');
  const passed = (m: number) => past?.minutes.includes(m) ?? false;
  const available = ALERT_PRESETS.filter((m) => !form.alerts.includes(m));
  const [picked, setPicked] = useState<number | null>(null);
  const pick = picked !== null && available.includes(picked as (typeof ALERT_PRESETS)[number]) ? picked : (available[0] ?? null);
  const full = form.alerts.length >= MAX_ALERTS_BEFORE || pick === null;

  const add = () => {
    if (pick === null) return;
    setForm((f) => ({ ...f, alerts: [...f.alerts, pick].sort((a, b) => b - a) }));
    setPicked(null);
  };

  return (
    <div id={id} className="repeat-options alarm-options">
      <h3 id={`${id}-alerts`}>{t('alarms.alerts')}</h3>
      <p id={`${id}-alerts-hint`} className="hint">
        {t('alarms.alertsHint', { max: MAX_ALERTS_BEFORE })}
      </p>
      {form.alerts.length === 0 ? (
        <p className="muted small">{t('alarms.noAlerts')}</p>
      ) : (
        <ul className="chips" aria-labelledby={`${id}-alerts`}>
          {form.alerts.map((m) => (
            <li key={m} className={passed(m) ? 'passed' : undefined}>
              {/* its time has passed: marked here, said under the chips */}
              {passed(m) && <span aria-hidden="true">⚠︎ </span>}
              <span>{alertText(m, t)}</span>
              <button
                type="button"
                className="icon-button"
                aria-label={t('alarms.remove', { alert: alertText(m, t) })}
                aria-describedby={passed(m) ? pastAlertId(id, m) : undefined}
                onClick={() => setForm((f) => ({ ...f, alerts: f.alerts.filter((x) => x !== m) }))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {past && <PastAlertWarnings id={id} past={past} timezone={form.timezone} dates={dates} />}
      {full ? (
        <p className="hint">{t('alarms.full')}</p>
      ) : (
        <>
          <label htmlFor={`${id}-add`}>{t('alarms.addAlert')}</label>
          <div className="with-unit">
            <select id={`${id}-add`} value={pick ?? ''} onChange={(e) => setPicked(Number(e.target.value))} {...described('alerts')}>
              {available.map((m) => (
                <option key={m} value={m}>
                  {alertText(m, t)}
                </option>
              ))}
            </select>
            <button type="button" className="button secondary" onClick={add}>
              {t('alarms.add')}
            </button>
          </div>
        </>
      )}
      {err('alerts')}

      <div className="grid-2">
        <div>
          <label htmlFor={`${id}-repeat`}>{t('alarms.repeat')}</label>
          <select
            id={`${id}-repeat`}
            value={form.repeatEvery}
            onChange={(e) => setForm((f) => ({ ...f, repeatEvery: Number(e.target.value) }))}
            aria-describedby={`${id}-repeat-hint`}
          >
            <option value={0}>{t('alarms.repeatOff')}</option>
            {REPEAT_EVERY_CHOICES.map((n) => (
              <option key={n} value={n}>
                {t('alarms.repeatEvery', { n })}
              </option>
            ))}
          </select>
        </div>
        {form.repeatEvery > 0 && (
          <div>
            <label htmlFor={`${id}-times`}>{t('alarms.repeatTimes')}</label>
            <select
              id={`${id}-times`}
              value={form.repeatTimes}
              onChange={(e) => setForm((f) => withRepeatTimes(f, Number(e.target.value)))}
              {...described('repeatTimes')}
            >
              {TIMES.map((n) => (
                <option key={n} value={n}>
                  {t('alarms.times', { count: n })}
                </option>
              ))}
            </select>
            {err('repeatTimes')}
          </div>
        )}
      </div>
      <p id={`${id}-repeat-hint`} className="hint">
        {t('alarms.repeatHint')}
      </p>
      {form.repeatEvery > 0 && <EscalationFields id={`${id}-escalate`} form={form} setForm={setForm} err={err} described={described} people={people} />}
    </div>
  );
}
