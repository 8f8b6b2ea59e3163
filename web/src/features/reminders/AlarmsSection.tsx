import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../lib/lang';
import { AlarmOptions } from './AlarmOptions';
import { alertsText, nagText } from './alarmText';
import { buildRepeat, type FormErrors, type ReminderForm } from './reminderLogic';

/** The reminder form's "Alerts and repeat until done": folded, with what is set said beside it. */
export function AlarmsSection({
  ids,
  form,
  setForm,
  err,
  described,
  open,
  onToggle,
  lang,
}: {
  ids: string;
  form: ReminderForm;
  setForm: (update: (f: ReminderForm) => ReminderForm) => void;
  err: (k: keyof FormErrors) => ReactNode;
  described: (k: keyof FormErrors) => object;
  open: boolean;
  onToggle: () => void;
  lang: Lang;
}) {
  const { t } = useTranslation('reminders');
  const summary = [alertsText(form.alerts, t, lang), nagText(buildRepeat(form), t)].filter(Boolean).join(t('recurrence.label.separator'));
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
      {open && <AlarmOptions id={`${ids}-alarms`} form={form} setForm={setForm} err={err} described={described} />}
    </>
  );
}
