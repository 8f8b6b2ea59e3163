import { useTranslation } from 'react-i18next';
import { DESCRIPTION_MAX, INTERVAL_MAX, TITLE_MAX, type FormErrors, type ReminderForm } from '../reminderLogic';

/**
 * The reminder form's field errors as the fields show them: `errorText` words one (a key of the
 * form's checks with its limit, or the server's words as they came), `err` renders it under its
 * field and `described` links the field to it (`aria-invalid`, `aria-describedby`).
 */
export function useFieldErrors(ids: string, errors: FormErrors, kind: ReminderForm['kind']) {
  const { t } = useTranslation(['reminders', 'errors']);
  const errorText = (k: keyof FormErrors, message: string) =>
    message.startsWith('errors.') ? t(message, { max: k === 'title' ? TITLE_MAX : k === 'interval' ? INTERVAL_MAX[kind] : DESCRIPTION_MAX }) : message;
  const err = (k: keyof FormErrors) =>
    errors[k] ? (
      <p id={`${ids}-${k}-err`} className="field-error" role="alert">
        {errorText(k, errors[k]!)}
      </p>
    ) : null;
  const described = (k: keyof FormErrors) => (errors[k] ? { 'aria-invalid': true, 'aria-describedby': `${ids}-${k}-err` } : {});
  return { errorText, err, described };
}
