import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api';
import { errorSummary, fieldErrorMessages, fieldErrorsByPath, fieldRoot } from '../../../lib/apiErrors';
import type { Reminder, ReminderInput, Weekday } from '../../../lib/types';
import { changedFormFields, formToInput, recheckErrors, validateForm, type FormErrors, type ReminderForm } from '../reminderLogic';
import { usePreview } from './usePreview';

/** Fields shown under "More options": an error in one opens it. */
const MORE_OPTION_FIELDS: readonly (keyof FormErrors)[] = ['interval', 'monthDay', 'until', 'count'];
/** Fields under "Alerts and repeat until done". */
const ALARM_FIELDS: readonly (keyof FormErrors)[] = ['alerts', 'repeatTimes', 'escalate'];
/** Where a server field error shows in the form. */
const SERVER_FIELDS: Partial<Record<string, keyof FormErrors>> = {
  title: 'title',
  description: 'description',
  send_at: 'time',
  timezone: 'timezone',
  recurrence: 'recurrence',
  alerts: 'alerts',
  repeat_until_done: 'repeatTimes',
  assignees: 'assignees',
  rotate: 'rotate',
  break_through: 'breakThrough',
};
/** Where a server error of a field's whole path shows: its own place, else where its root does. */
const serverFieldOf = (path: string): keyof FormErrors | undefined =>
  path.startsWith('repeat_until_done.escalate') ? 'escalate' : SERVER_FIELDS[fieldRoot(path)];

export interface ReminderFormOptions {
  open: boolean;
  initial: ReminderForm;
  editing: Reminder | null;
  onSave: (input: ReminderInput) => Promise<void>;
  onClose: () => void;
}

/**
 * The reminder dialog's form: its fields (back to `initial` whenever the dialog opens) and their
 * preview, the field errors (checked on Save, then again as the fields change), the server's
 * refusal (by field where it names one), and the fold-outs (one holding an error opens).
 */
export function useReminderForm({ open, initial, editing, onSave, onClose }: ReminderFormOptions) {
  const { t } = useTranslation(['reminders', 'errors']);
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
  // Another list has other people: who is reminded starts again at everyone, and no step tells a
  // member of the list left.
  const setList = (listId: string) =>
    setForm((f) => (f.listId === listId ? f : { ...f, listId, assignees: [], rotate: false, escalate: f.escalate.filter((s) => s.to !== 'member') }));
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
      if (isApiError(err, 'VALIDATION_FAILED') && (err.details || err.fields)) {
        // Each failing field by its code, in the reader's language (lib/apiErrors).
        const byField = fieldErrorMessages(t, err);
        const shown: FormErrors = {};
        for (const [path, text] of Object.entries(fieldErrorsByPath(t, err))) {
          const k = serverFieldOf(path);
          if (k) shown[k] ??= text;
        }
        setErrors(shown);
        if (ALARM_FIELDS.some((k) => shown[k])) setAlarmsOpen(true);
        const elsewhere = Object.keys(byField).find((f) => !SERVER_FIELDS[f]);
        setServerError(elsewhere ? byField[elsewhere]! : t('errors.validation'));
      } else if (isApiError(err, 'ERR_NETWORK') || isApiError(err, 'TIMEOUT')) setServerError(t('errors.network'));
      else setServerError(isApiError(err) ? errorSummary(t, err) : t('errors.saveFailed'));
    } finally {
      setBusy(false);
    }
  }

  // Unsaved changes: Escape asks before it discards them.
  const dirty = open && form !== initial && JSON.stringify(form) !== JSON.stringify(initial);

  return { form, setForm, set, setList, toggleDay, errors, serverError, busy, preview, moreOpen, setMoreOpen, alarmsOpen, setAlarmsOpen, submit, dirty };
}
