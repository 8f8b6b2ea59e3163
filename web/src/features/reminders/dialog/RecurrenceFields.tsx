import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RECURRENCE_KINDS, WEEKDAYS, type Weekday } from '../../../lib/types';
import type { Dates } from '../../../shared/useDates';
import { recurrenceText } from '../recurrenceText';
import { DEFAULT_REPEAT_OPTIONS, HOURLY_MAX, HOURLY_MIN, buildRecurrence, type FormErrors, type ReminderForm } from '../reminderLogic';
import { RepeatOptions } from './RepeatOptions';

/**
 * The reminder form's repeat: the kind, every N hours, the days of a custom week, and "More
 * options" (folded; what they make of the rule is said in words beside it, also while folded).
 */
export function RecurrenceFields({
  ids,
  form,
  setForm,
  toggleDay,
  errors,
  err,
  described,
  moreOpen,
  onToggleMore,
  dates,
}: {
  ids: string;
  form: ReminderForm;
  setForm: (update: (f: ReminderForm) => ReminderForm) => void;
  toggleDay: (d: Weekday) => void;
  errors: FormErrors;
  err: (k: keyof FormErrors) => ReactNode;
  described: (k: keyof FormErrors) => object;
  moreOpen: boolean;
  onToggleMore: () => void;
  dates: Dates;
}) {
  const { t } = useTranslation('reminders');
  const set = <K extends keyof ReminderForm>(k: K, v: ReminderForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const rule = buildRecurrence(form);
  const optionsSet = JSON.stringify(rule) !== JSON.stringify(buildRecurrence({ ...form, ...DEFAULT_REPEAT_OPTIONS }));
  return (
    <>
      <label htmlFor={`${ids}-rec`}>{t('fields.recurrence')}</label>
      <select id={`${ids}-rec`} value={form.kind} onChange={(e) => set('kind', e.target.value as ReminderForm['kind'])}>
        {RECURRENCE_KINDS.map((k) => (
          <option key={k} value={k}>
            {t(`recurrence.${k}`)}
          </option>
        ))}
      </select>

      {form.kind === 'hourly' && (
        <>
          <label htmlFor={`${ids}-hours`}>{t('fields.intervalHours')}</label>
          <input
            id={`${ids}-hours`}
            type="number"
            inputMode="numeric"
            min={HOURLY_MIN}
            max={HOURLY_MAX}
            value={Number.isNaN(form.intervalHours) ? '' : form.intervalHours}
            onChange={(e) => set('intervalHours', e.target.valueAsNumber)}
            {...described('intervalHours')}
          />
          {err('intervalHours')}
        </>
      )}

      {form.kind === 'custom' && (
        <fieldset className="days" {...(errors.days ? { 'aria-describedby': `${ids}-days-err` } : {})}>
          <legend>{t('fields.days')}</legend>
          {WEEKDAYS.map((d) => (
            <label key={d} className="day-chip">
              <input type="checkbox" checked={form.days.includes(d)} onChange={() => toggleDay(d)} />
              <span>{t(`weekdays.${d}`)}</span>
            </label>
          ))}
        </fieldset>
      )}
      {form.kind === 'custom' && err('days')}
      {err('recurrence')}

      {form.kind !== 'none' && (
        <div className="more-options">
          <button type="button" className="button small secondary disclosure" aria-expanded={moreOpen} aria-controls={`${ids}-more`} onClick={onToggleMore}>
            {t('fields.moreOptions')}
          </button>
          {/* What the options make of the rule, in words, also while they are folded away. */}
          {optionsSet && (
            <p className="hint" aria-live="polite">
              {recurrenceText(rule, t, dates.lang, dates.now, dates.userZone)}
            </p>
          )}
        </div>
      )}
      {form.kind !== 'none' && moreOpen && <RepeatOptions id={`${ids}-more`} form={form} setForm={setForm} err={err} described={described} />}
    </>
  );
}
