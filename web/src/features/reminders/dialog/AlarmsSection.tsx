import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../../lib/lang';
import { useNow } from '../../../lib/useNow';
import type { Dates } from '../../../shared/useDates';
import { AlarmOptions } from './AlarmOptions';
import { alertsText, escalationText, nagText } from '../alarmText';
import type { EscalationPeople } from './EscalationFields';
import { PastAlertWarnings } from './PastAlertWarnings';
import { pastAlerts } from './pastAlerts';
import { buildRepeat, type FormErrors, type ReminderForm } from '../reminderLogic';

/**
 * The reminder form's "Alerts and repeat until done": folded, with what is set said beside it,
 * and, folded or not, which alerts' times have already passed (they will not ring).
 */
export function AlarmsSection({
  ids,
  form,
  setForm,
  err,
  described,
  open,
  onToggle,
  lang,
  dates,
  people,
}: {
  ids: string;
  form: ReminderForm;
  setForm: (update: (f: ReminderForm) => ReminderForm) => void;
  err: (k: keyof FormErrors) => ReactNode;
  described: (k: keyof FormErrors) => object;
  open: boolean;
  onToggle: () => void;
  lang: Lang;
  dates: Dates;
  /** the list's other people, for a step that tells one of them */
  people: EscalationPeople;
}) {
  const { t } = useTranslation('reminders');
  // An alert's time passes while the dialog is open: checked again every 15 s.
  const now = useNow(15_000);
  const past = pastAlerts(form, now);
  const repeat = buildRepeat(form);
  const summary = [alertsText(form.alerts, t, lang), nagText(repeat, t), escalationText(repeat, t, people.nameOf)].filter(Boolean).join(t('recurrence.label.separator'));
  return (
    <>
      <div className="more-options">
        <button type="button" className="button small secondary disclosure" aria-expanded={open} aria-controls={`${ids}-alarms`} onClick={onToggle}>
          {t('alarms.disclosure')}
        </button>
        {summary && (
          <p className="hint" aria-live="polite">
            {summary}
          </p>
        )}
      </div>
      {open ? (
        <AlarmOptions id={`${ids}-alarms`} form={form} setForm={setForm} err={err} described={described} past={past} dates={dates} people={people} />
      ) : (
        past && <PastAlertWarnings id={`${ids}-alarms`} past={past} timezone={form.timezone} dates={dates} />
      )}
    </>
  );
}
