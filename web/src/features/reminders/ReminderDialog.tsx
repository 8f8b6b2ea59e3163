import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../components/Dialog';
import { TimeZoneSelect } from '../../components/TimeZoneSelect';
import { api, isApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { preventImeSubmit } from '../../lib/ime';
import { RECURRENCE_KINDS, WEEKDAYS, type Reminder, type ReminderInput, type Weekday } from '../../lib/types';
import { useLang } from '../../lib/useLang';
import {
  DESCRIPTION_MAX,
  HOURLY_MAX,
  HOURLY_MIN,
  TITLE_MAX,
  formToInput,
  validateForm,
  type FormErrors,
  type ReminderForm,
} from './reminderLogic';

const PREVIEW_DEBOUNCE_MS = 400;

/** Next occurrences from POST /api/reminders/preview, debounced. */
function usePreview(form: ReminderForm, enabled: boolean) {
  const [state, setState] = useState<{ items: string[]; error: boolean; loading: boolean }>({ items: [], error: false, loading: false });
  const input = useMemo(() => {
    if (!enabled) return null;
    const errors = validateForm({ ...form, title: form.title.trim() || 'preview' }, 0, { requireFuture: false });
    if (Object.keys(errors).length > 0) return null;
    try {
      return JSON.stringify(formToInput({ ...form, title: form.title.trim() || 'preview' }));
    } catch {
      return null;
    }
  }, [form, enabled]);

  useEffect(() => {
    if (!input) {
      setState({ items: [], error: false, loading: false });
      return;
    }
    let cancelled = false;
    setState((s) => ({ ...s, loading: true }));
    const h = setTimeout(() => {
      api.reminders.preview(JSON.parse(input) as ReminderInput, 5).then(
        (r) => !cancelled && setState({ items: r.occurrences, error: false, loading: false }),
        () => !cancelled && setState({ items: [], error: true, loading: false }),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(h);
    };
  }, [input]);
  return state;
}

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
  const { t } = useTranslation('reminders');
  const lang = useLang();
  const ids = useId();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const preview = usePreview(form, open);

  useEffect(() => {
    if (open) {
      setForm(initial);
      setErrors({});
      setServerError(null);
    }
  }, [open, initial]);

  const set = <K extends keyof ReminderForm>(k: K, v: ReminderForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const toggleDay = (d: Weekday) =>
    setForm((f) => ({ ...f, days: f.days.includes(d) ? f.days.filter((x) => x !== d) : [...f.days, d] }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    // Only a time the person changed must be in the future (an edit never traps on time).
    const timeChanged = !editing || form.date !== initial.date || form.time !== initial.time || form.timezone !== initial.timezone;
    const errs = validateForm(form, Date.now(), { requireFuture: timeChanged });
    setErrors(errs);
    if (Object.keys(errs).length > 0) return;
    setBusy(true);
    setServerError(null);
    try {
      await onSave(formToInput(form));
      onClose();
    } catch (err) {
      if (isApiError(err, 'VALIDATION_FAILED') && err.fields) {
        const f = err.fields;
        setErrors({
          ...(f.title ? { title: f.title } : {}),
          ...(f.description ? { description: f.description } : {}),
          ...(f.send_at ? { time: f.send_at } : {}),
          ...(f.timezone ? { timezone: f.timezone } : {}),
          ...(f.recurrence ? { days: f.recurrence } : {}),
        });
        setServerError(t('errors.validation'));
      } else if (isApiError(err, 'REMINDER_LIMIT')) setServerError(t('errors.limit'));
      else if (isApiError(err, 'ERR_NETWORK') || isApiError(err, 'TIMEOUT')) setServerError(t('errors.network'));
      else setServerError(err instanceof Error && !isApiError(err) ? err.message : t('errors.saveFailed'));
    } finally {
      setBusy(false);
    }
  }

  const err = (k: keyof FormErrors) =>
    errors[k] ? (
      <p id={`${ids}-${k}-err`} className="field-error" role="alert">
        {errors[k]!.startsWith('errors.') ? t(errors[k]!, { max: k === 'title' ? TITLE_MAX : DESCRIPTION_MAX }) : errors[k]}
      </p>
    ) : null;
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

        <section className="preview" aria-live="polite" aria-labelledby={`${ids}-preview`}>
          <h3 id={`${ids}-preview`}>{t('dialog.preview')}</h3>
          {preview.loading ? (
            <p className="muted">{t('dialog.previewLoading')}</p>
          ) : preview.error ? (
            <p className="muted">{t('dialog.previewUnavailable')}</p>
          ) : preview.items.length === 0 ? (
            <p className="muted">{t('dialog.previewEmpty')}</p>
          ) : (
            <ol>
              {preview.items.map((iso) => (
                <li key={iso}>{formatDateTime(iso, lang, form.timezone)}</li>
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
