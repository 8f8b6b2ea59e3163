import { useTranslation } from 'react-i18next';
import { WEEKDAYS, type HolidayRule, type Weekday } from '../../../lib/types';
import {
  COUNT_MAX,
  HOLIDAY_RULES,
  INTERVAL_MAX,
  WEEKS_OF_MONTH,
  dayOfMonth,
  nthWeekdayOf,
  type FormErrors,
  type MonthlyBy,
  type RecurrenceEnd,
  type ReminderForm,
} from '../reminderLogic';

const MONTHLY_BY: readonly MonthlyBy[] = ['day', 'lastDay', 'weekday'];
const ENDS: readonly RecurrenceEnd[] = ['never', 'until', 'count'];

/**
 * The reminder dialog's "More options" for a repeating reminder: interval, which day of the
 * month, the end, and Japanese holidays. `err`/`described` render and link the field errors.
 */
/** What a fold-out part of the reminder dialog gets from the dialog. */
export interface FormSectionProps {
  id: string;
  form: ReminderForm;
  setForm: (update: (f: ReminderForm) => ReminderForm) => void;
  err: (k: keyof FormErrors) => React.ReactNode;
  described: (k: keyof FormErrors) => object;
}

export function RepeatOptions({
  id,
  form,
  setForm,
  err,
  described,
}: FormSectionProps) {
  const { t } = useTranslation('reminders');
  const set = <K extends keyof ReminderForm>(k: K, v: ReminderForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const intervalMax = INTERVAL_MAX[form.kind];
  const unitKind = form.kind as 'daily' | 'weekly' | 'custom' | 'monthly' | 'yearly';
  const num = (v: number) => (Number.isNaN(v) ? '' : v);

  return (
    <div id={id} className="repeat-options">
      {intervalMax && (
        <>
          <label htmlFor={`${id}-interval`}>{t('fields.interval')}</label>
          <div className="with-unit">
            <input
              id={`${id}-interval`}
              type="number"
              inputMode="numeric"
              min={1}
              max={intervalMax}
              value={num(form.interval)}
              onChange={(e) => set('interval', e.target.valueAsNumber)}
              aria-describedby={`${id}-interval-unit`}
              {...described('interval')}
            />
            <span id={`${id}-interval-unit`}>{t(`fields.intervalUnit.${unitKind}`)}</span>
          </div>
          {err('interval')}
        </>
      )}

      {form.kind === 'monthly' && (
        <>
          <label htmlFor={`${id}-monthly-by`}>{t('fields.monthlyBy')}</label>
          <select
            id={`${id}-monthly-by`}
            value={form.monthlyBy}
            onChange={(e) => {
              const by = e.target.value as MonthlyBy;
              // The Nth weekday starts as the start date's (8 Dec 2026 -> the 2nd Tuesday).
              setForm((f) => ({ ...f, monthlyBy: by, ...(by === 'weekday' && f.monthlyBy !== 'weekday' ? nthWeekdayOf(f.date) : {}) }));
            }}
          >
            {MONTHLY_BY.map((b) => (
              <option key={b} value={b}>
                {t(`fields.monthlyByOption.${b}`)}
              </option>
            ))}
          </select>
          {form.monthlyBy === 'day' && (
            <>
              <label htmlFor={`${id}-month-day`}>{t('fields.monthDay')}</label>
              <input
                id={`${id}-month-day`}
                type="number"
                inputMode="numeric"
                min={1}
                max={31}
                value={num(form.monthDay ?? dayOfMonth(form.date))}
                onChange={(e) => set('monthDay', e.target.valueAsNumber)}
                {...described('monthDay')}
              />
              {err('monthDay')}
              {(form.monthDay ?? dayOfMonth(form.date)) > 28 && <p className="hint">{t('fields.monthDayHint')}</p>}
            </>
          )}
          {form.monthlyBy === 'weekday' && (
            <div className="grid-2">
              <div>
                <label htmlFor={`${id}-week`}>{t('fields.week')}</label>
                <select id={`${id}-week`} value={form.week} onChange={(e) => set('week', Number(e.target.value))}>
                  {WEEKS_OF_MONTH.map((w) => (
                    <option key={w} value={w}>
                      {t(`recurrence.nth.${w === -1 ? 'last' : w}`)}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <label htmlFor={`${id}-weekday`}>{t('fields.weekday')}</label>
                <select id={`${id}-weekday`} value={form.weekday} onChange={(e) => set('weekday', e.target.value as Weekday)}>
                  {WEEKDAYS.map((d) => (
                    <option key={d} value={d}>
                      {t(`weekdaysLong.${d}`)}
                    </option>
                  ))}
                </select>
              </div>
            </div>
          )}
        </>
      )}

      <label htmlFor={`${id}-end`}>{t('fields.end')}</label>
      <select id={`${id}-end`} value={form.end} onChange={(e) => set('end', e.target.value as RecurrenceEnd)}>
        {ENDS.map((k) => (
          <option key={k} value={k}>
            {t(`fields.endOption.${k}`)}
          </option>
        ))}
      </select>
      {form.end === 'until' && (
        <>
          <label htmlFor={`${id}-until`}>{t('fields.until')}</label>
          <input id={`${id}-until`} type="date" min={form.date} value={form.until} onChange={(e) => set('until', e.target.value)} {...described('until')} />
          {err('until')}
        </>
      )}
      {form.end === 'count' && (
        <>
          <label htmlFor={`${id}-count`}>{t('fields.count')}</label>
          <input
            id={`${id}-count`}
            type="number"
            inputMode="numeric"
            min={1}
            max={COUNT_MAX}
            value={num(form.count)}
            onChange={(e) => set('count', e.target.valueAsNumber)}
            {...described('count')}
          />
          {err('count')}
        </>
      )}

      <label htmlFor={`${id}-holidays`}>{t('fields.holidays')}</label>
      <select id={`${id}-holidays`} value={form.holidays} onChange={(e) => set('holidays', e.target.value as HolidayRule)} aria-describedby={`${id}-holidays-hint`}>
        {HOLIDAY_RULES.map((h) => (
          <option key={h} value={h}>
            {t(`fields.holidayOption.${h}`)}
          </option>
        ))}
      </select>
      <p id={`${id}-holidays-hint`} className="hint">
        {t('fields.holidaysHint')}
      </p>
    </div>
  );
}
