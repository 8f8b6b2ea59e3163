import { useTranslation } from 'react-i18next';
import type { Dates } from '../../../shared/useDates';
import type { ReminderForm } from '../reminderLogic';

/** A repeating reminder's skipped dates, each removable (shown while there are some). */
export function SkippedDates({
  ids,
  form,
  setForm,
  dates,
}: {
  ids: string;
  form: ReminderForm;
  setForm: (update: (f: ReminderForm) => ReminderForm) => void;
  dates: Dates;
}) {
  const { t } = useTranslation('reminders');
  if (form.kind === 'none' || form.skip.length === 0) return null;
  return (
    <section className="skipped" aria-labelledby={`${ids}-skipped`}>
      <h3 id={`${ids}-skipped`}>{t('fields.skipped')}</h3>
      <ul>
        {[...form.skip].sort().map((d) => (
          <li key={d}>
            <span>{dates.day(d)}</span>
            <button
              type="button"
              className="icon-button"
              aria-label={t('fields.unskip', { date: dates.day(d) })}
              onClick={() => setForm((f) => ({ ...f, skip: f.skip.filter((x) => x !== d) }))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
