import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { api, isApiError } from '../../lib/api';
import { errorSummary, fieldErrorMessages } from '../../lib/apiErrors';
import { preventImeSubmit } from '../../lib/ime';
import { RECURRENCE_KINDS, WEEKDAYS, type Reminder, type ReminderInput, type Weekday } from '../../lib/types';
import { TimeZoneSelect } from '../../shared/TimeZoneSelect';
import { useDates } from '../../shared/useDates';
import { AlarmOptions } from './AlarmOptions';
import { alertsText, nagText } from './alarmText';
import { markPreview, needsPlainPreview, type PreviewRow } from './previewMarks';
import { recurrenceText } from './recurrenceText';
import {
  DESCRIPTION_MAX,
  HOURLY_MAX,
  HOURLY_MIN,
  DEFAULT_REPEAT_OPTIONS,
  INTERVAL_MAX,
  TITLE_MAX,
  buildRecurrence,
  buildRepeat,
  changedFormFields,
  formToInput,
  recheckErrors,
  validateForm,
  type FormErrors,
  type ReminderForm,
} from './reminderLogic';
import { RepeatOptions } from './RepeatOptions';

const PREVIEW_DEBOUNCE_MS = 400;
const PREVIEW_MARK_TEXT = { moved: 'dialog.previewMoved', skipped: 'dialog.previewSkipped', holiday: 'dialog.previewHoliday' } as const;
const PREVIEW_COUNT = 5;
/** Fields shown under "More options": an error in one opens it. */
const MORE_OPTION_FIELDS: readonly (keyof FormErrors)[] = ['interval', 'monthDay', 'until', 'count'];
/** Fields under "Alerts and repeat until done". */
const ALARM_FIELDS: readonly (keyof FormErrors)[] = ['alerts', 'repeatTimes'];
/** Where a server field error shows in the form. */
const SERVER_FIELDS: Partial<Record<string, keyof FormErrors>> = {
  title: 'title',
  description: 'description',
  send_at: 'time',
  timezone: 'timezone',
  recurrence: 'recurrence',
  alerts: 'alerts',
  repeat_until_done: 'repeatTimes',
};

type PreviewProblem = { field: keyof FormErrors; message: string };

/**
 * Next occurrences from POST /api/reminders/preview, debounced. With a holiday rule or skipped
 * dates, the same rule without them is previewed too, to mark what moved or was dropped.
 */
function usePreview(form: ReminderForm, enabled: boolean) {
  const [state, setState] = useState<{ rows: PreviewRow[]; error: boolean; loading: boolean }>({ rows: [], error: false, loading: false });
  const { input, problem } = useMemo((): { input: string | null; problem: PreviewProblem | null } => {
    if (!enabled) return { input: null, problem: null };
    const errors = validateForm({ ...form, title: form.title.trim() || 'preview' }, 0, { requireFuture: false });
    // What stops the preview, so that it can say so ("choose at least one day").
    const first = (Object.keys(errors) as (keyof FormErrors)[])[0];
    if (first) return { input: null, problem: { field: first, message: errors[first]! } };
    try {
      return { input: JSON.stringify(formToInput({ ...form, title: form.title.trim() || 'preview' })), problem: null };
    } catch {
      return { input: null, problem: { field: 'date', message: 'errors.dateRequired' } };
    }
  }, [form, enabled]);

  useEffect(() => {
    if (!input) {
      setState({ rows: [], error: false, loading: false });
      return;
    }
    let cancelled = false;
    setState((s) => ({ ...s, loading: true }));
    const h = setTimeout(() => {
      const rule = JSON.parse(input) as ReminderInput;
      const rec = rule.recurrence ?? { kind: 'none' };
      const skip = rec.skip ?? [];
      const holidays = rec.holidays ?? 'ignore';
      let plain: Promise<string[] | null> = Promise.resolve(null);
      if (needsPlainPreview(holidays, skip)) {
        const { holidays: _h, skip: _s, ...plainRec } = rec;
        // Enough plain dates to reach past the dropped ones.
        const count = Math.min(50, PREVIEW_COUNT + skip.length + 5);
        plain = api.reminders.preview({ ...rule, recurrence: plainRec as typeof rec }, count).then((r) => r.occurrences);
      }
      Promise.all([api.reminders.preview(rule, PREVIEW_COUNT), plain]).then(
        ([actual, plainList]) =>
          !cancelled &&
          setState({
            rows: markPreview(actual.occurrences, plainList, {
              skip,
              holidays,
              timezone: rule.timezone ?? 'UTC',
              complete: actual.occurrences.length < PREVIEW_COUNT,
            }),
            error: false,
            loading: false,
          }),
        () => !cancelled && setState({ rows: [], error: true, loading: false }),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(h);
    };
  }, [input]);
  return { ...state, problem };
}

/** The preview's own errors ask for a date and time; any other names the field to fix. */
const PREVIEW_NEEDS_DATE: readonly (keyof FormErrors)[] = ['date', 'time', 'timezone'];

export function ReminderDialog({
  open,
  initial,
  editing,
  onClose,
  onSave,
  deviceNotice,
}: {
  open: boolean;
  initial: ReminderForm;
  editing: Reminder | null;
  onClose: () => void;
  onSave: (input: ReminderInput) => Promise<void>;
  /** shown above the form: whether this device will ring (the app passes it in) */
  deviceNotice: ReactNode;
}) {
  const { t } = useTranslation(['reminders', 'errors']);
  const dates = useDates();
  const { lang } = dates;
  const ids = useId();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [moreOpen, setMoreOpen] = useState(false);
  const [alarmsOpen, setAlarmsOpen] = useState(false);
  const preview = usePreview(form, open);

  useEffect(() => {
    if (open) {
      setForm(initial);
      setErrors({});
      setServerError(null);
      setMoreOpen(false);
      setAlarmsOpen(false);
    }
  }, [open, initial]);

  // Only a time the person changed must be in the future (an edit never traps on time).
  const check = (f: ReminderForm) => {
    const timeChanged = !editing || f.date !== initial.date || f.time !== initial.time || f.timezone !== initial.timezone;
    return validateForm(f, Date.now(), { requireFuture: timeChanged });
  };
  const checkRef = useRef(check);
  checkRef.current = check;
  // The errors shown after a save attempt are checked again as the fields change: each goes once
  // its field is right.
  const shownFor = useRef(form);
  useEffect(() => {
    const before = shownFor.current;
    shownFor.current = form;
    if (before === form || Object.keys(errors).length === 0) return;
    const next = recheckErrors(errors, checkRef.current(form), changedFormFields(before, form));
    setErrors(next);
    // "Please check your input" goes with the last field error.
    if (Object.keys(next).length === 0) setServerError((s) => (s === t('errors.validation') ? null : s));
  }, [form, errors, t]);

  const set = <K extends keyof ReminderForm>(k: K, v: ReminderForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const toggleDay = (d: Weekday) =>
    setForm((f) => ({ ...f, days: f.days.includes(d) ? f.days.filter((x) => x !== d) : [...f.days, d] }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const errs = check(form);
    setErrors(errs);
    if (MORE_OPTION_FIELDS.some((k) => errs[k])) setMoreOpen(true);
    if (ALARM_FIELDS.some((k) => errs[k])) setAlarmsOpen(true);
    if (Object.keys(errs).length > 0) return;
    setBusy(true);
    setServerError(null);
    try {
      await onSave(formToInput(form));
      onClose();
    } catch (err) {
      if (isApiError(err, 'VALIDATION_FAILED') && err.fields) {
        // The server's words, by field, in the reader's language (lib/apiErrors).
        const byField = fieldErrorMessages(t, err.fields);
        const shown: FormErrors = {};
        for (const [field, text] of Object.entries(byField)) {
          const k = SERVER_FIELDS[field];
          if (k) shown[k] = text;
        }
        setErrors(shown);
        if (shown.alerts || shown.repeatTimes) setAlarmsOpen(true);
        const elsewhere = Object.keys(byField).find((f) => !SERVER_FIELDS[f]);
        setServerError(elsewhere ? byField[elsewhere]! : t('errors.validation'));
      } else if (isApiError(err, 'ERR_NETWORK') || isApiError(err, 'TIMEOUT')) setServerError(t('errors.network'));
      else setServerError(isApiError(err) ? errorSummary(t, err) : t('errors.saveFailed'));
    } finally {
      setBusy(false);
    }
  }

  const rule = buildRecurrence(form);
  const optionsSet = JSON.stringify(rule) !== JSON.stringify(buildRecurrence({ ...form, ...DEFAULT_REPEAT_OPTIONS }));
  const alarmsSummary = [alertsText(form.alerts, t, lang), nagText(buildRepeat(form), t)].filter(Boolean).join(t('recurrence.label.separator'));
  const errorText = (k: keyof FormErrors, message: string) =>
    message.startsWith('errors.') ? t(message, { max: k === 'title' ? TITLE_MAX : k === 'interval' ? INTERVAL_MAX[form.kind] : DESCRIPTION_MAX }) : message;
  const err = (k: keyof FormErrors) =>
    errors[k] ? (
      <p id={`${ids}-${k}-err`} className="field-error" role="alert">
        {errorText(k, errors[k]!)}
      </p>
    ) : null;
  const previewBlocked =
    preview.problem === null || PREVIEW_NEEDS_DATE.includes(preview.problem.field)
      ? t('dialog.previewEmpty')
      : errorText(preview.problem.field, preview.problem.message);
  const described = (k: keyof FormErrors) => (errors[k] ? { 'aria-invalid': true, 'aria-describedby': `${ids}-${k}-err` } : {});

  return (
    <Dialog
      open={open}
      wide
      title={editing ? t('dialog.editTitle') : t('dialog.createTitle')}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button secondary" onClick={onClose}>
            {t('dialog.cancel')}
          </button>
          <button type="submit" form={`${ids}-form`} className="button primary" disabled={busy}>
            {busy ? t('dialog.saving') : t('dialog.save')}
          </button>
        </>
      }
    >
      {deviceNotice}
      <form id={`${ids}-form`} className="reminder-form" onSubmit={submit} onKeyDown={preventImeSubmit} noValidate>
        <label htmlFor={`${ids}-title`}>{t('fields.title')}</label>
        <input
          id={`${ids}-title`}
          value={form.title}
          maxLength={TITLE_MAX}
          onChange={(e) => set('title', e.target.value)}
          placeholder={t('fields.titlePlaceholder')}
          required
          {...described('title')}
        />
        {err('title')}

        <label htmlFor={`${ids}-desc`}>{t('fields.description')}</label>
        <textarea
          id={`${ids}-desc`}
          value={form.description}
          maxLength={DESCRIPTION_MAX}
          rows={3}
          onChange={(e) => set('description', e.target.value)}
          {...described('description')}
        />
        {err('description')}

        <div className="grid-2">
          <div>
            <label htmlFor={`${ids}-date`}>{t('fields.date')}</label>
            <input id={`${ids}-date`} type="date" value={form.date} onChange={(e) => set('date', e.target.value)} required {...described('date')} />
            {err('date')}
          </div>
          <div>
            <label htmlFor={`${ids}-time`}>{t('fields.time')}</label>
            <input
              id={`${ids}-time`}
              type="time"
              step={1}
              value={form.time}
              onChange={(e) => set('time', e.target.value.length === 5 ? `${e.target.value}:00` : e.target.value)}
              required
              {...described('time')}
            />
            {err('time')}
          </div>
        </div>

        <label htmlFor={`${ids}-tz`}>{t('fields.timezone')}</label>
        <TimeZoneSelect id={`${ids}-tz`} value={form.timezone} onChange={(z) => set('timezone', z)} {...described('timezone')} />
        {err('timezone')}

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
            <button
              type="button"
              className="button small secondary disclosure"
              aria-expanded={moreOpen}
              aria-controls={`${ids}-more`}
              onClick={() => setMoreOpen((o) => !o)}
            >
              {t('fields.moreOptions')}
            </button>
            {/* What the options make of the rule, in words, also while they are folded away. */}
            {optionsSet && (
              <p className="hint" aria-live="polite">
                {recurrenceText(rule, t, lang, dates.now, dates.userZone)}
              </p>
            )}
          </div>
        )}
        {form.kind !== 'none' && moreOpen && <RepeatOptions id={`${ids}-more`} form={form} setForm={setForm} err={err} described={described} />}

        <div className="more-options">
          <button
            type="button"
            className="button small secondary disclosure"
            aria-expanded={alarmsOpen}
            aria-controls={`${ids}-alarms`}
            onClick={() => setAlarmsOpen((o) => !o)}
          >
            {t('alarms.disclosure')}
          </button>
          {alarmsSummary && (
            <p className="hint" aria-live="polite">
              {alarmsSummary}
            </p>
          )}
        </div>
        {alarmsOpen && <AlarmOptions id={`${ids}-alarms`} form={form} setForm={setForm} err={err} described={described} />}

        {form.kind !== 'none' && form.skip.length > 0 && (
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
        )}

        <section className="preview" aria-live="polite" aria-labelledby={`${ids}-preview`}>
          <h3 id={`${ids}-preview`}>{t('dialog.preview')}</h3>
          {preview.loading ? (
            <p className="muted">{t('dialog.previewLoading')}</p>
          ) : preview.error ? (
            <p className="muted">{t('dialog.previewUnavailable')}</p>
          ) : preview.rows.length === 0 ? (
            <p className="muted">{previewBlocked}</p>
          ) : (
            <ol>
              {preview.rows.map(({ iso, mark }) => (
                <li key={`${iso}-${mark ?? ''}`} className={mark === 'skipped' || mark === 'holiday' ? 'dropped' : undefined}>
                  <span className="when">{dates.when(iso, form.timezone)}</span>
                  {mark && <span className={`badge${mark === 'moved' ? '' : ' muted'}`}>{t(PREVIEW_MARK_TEXT[mark])}</span>}
                </li>
              ))}
            </ol>
          )}
        </section>
        {serverError && (
          <p className="field-error" role="alert">
            {serverError}
          </p>
        )}
      </form>
    </Dialog>
  );
}
