import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { preventImeSubmit } from '../../lib/ime';
import { LIST_COLOURS } from '../../lib/types';
import { LIST_NAME_MAX, listErrorText, nameProblem, type ListFormError, type ListFormValue } from './listForm';

/**
 * A list's name and colour (eight swatches, each with its name), for a new list and for an
 * edit. Save checks the name first, then `onSubmit` (which throws the server's refusal, shown
 * here in the person's language). Offline it is disabled, `offlineReason` (an element's id)
 * saying why.
 */
export function ListForm({
  initial,
  submitLabel,
  busyLabel,
  onSubmit,
  onCancel,
  disabled,
  offlineReason,
}: {
  initial: ListFormValue;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (value: ListFormValue) => Promise<void>;
  onCancel?: () => void;
  /** offline: nothing can be sent */
  disabled: boolean;
  offlineReason?: string;
}) {
  const { t } = useTranslation(['lists', 'errors']);
  const ids = useId();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<ListFormError | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (disabled || busy) return;
    const problem = nameProblem(value.name);
    if (problem) {
      setError({ field: 'name', message: t(problem, { max: LIST_NAME_MAX }) });
      document.getElementById(`${ids}-name`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit({ name: value.name.trim(), colour: value.colour });
    } catch (err) {
      setError(listErrorText(t, err));
      setBusy(false);
      return;
    }
    setBusy(false);
  }

  const nameError = error?.field === 'name' ? error.message : null;
  const describedBy = [`${ids}-hint`, nameError ? `${ids}-name-error` : null].filter(Boolean).join(' ');
  return (
    <form className="list-form" onSubmit={submit} onKeyDown={preventImeSubmit} noValidate>
      <label htmlFor={`${ids}-name`}>{t('form.name')}</label>
      <input
        id={`${ids}-name`}
        value={value.name}
        autoComplete="off"
        onChange={(e) => {
          const name = e.target.value;
          setValue((v) => ({ ...v, name }));
          if (error?.field === 'name') setError(null);
        }}
        aria-invalid={nameError ? true : undefined}
        aria-describedby={describedBy}
        required
        autoFocus
      />
      <p className="hint" id={`${ids}-hint`}>
        {t('form.nameHint', { max: LIST_NAME_MAX })}
      </p>
      {nameError && (
        <p className="field-error" id={`${ids}-name-error`} role="alert">
          {nameError}
        </p>
      )}
      <fieldset className="swatches">
        <legend>{t('form.colour')}</legend>
        {LIST_COLOURS.map((c) => (
          <label key={c} className={`swatch lc-${c}`}>
            <input type="radio" name={`${ids}-colour`} value={c} checked={value.colour === c} onChange={() => setValue((v) => ({ ...v, colour: c }))} />
            <span className="list-dot" aria-hidden="true" />
            {t(`colours.${c}`)}
          </label>
        ))}
      </fieldset>
      {error && !error.field && (
        <p className="field-error" role="alert">
          {error.message}
        </p>
      )}
      <div className="row">
        <button type="submit" className="button primary small" disabled={disabled || busy} aria-describedby={disabled ? offlineReason : undefined}>
          {busy ? busyLabel : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button secondary small" onClick={onCancel}>
            {t('form.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
