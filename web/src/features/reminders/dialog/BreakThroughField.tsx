import { useTranslation } from 'react-i18next';
import type { FormSectionProps } from './RepeatOptions';

/**
 * The reminder dialog's "Ring during quiet hours" (`break_through`): for what cannot wait
 * (medicine, a flight), it rings in the quiet hours of the people it is for rather than being
 * held until they end (decisions.md "Reach and rhythm").
 */
export function BreakThroughField({ id, form, setForm, err, described }: FormSectionProps) {
  const { t } = useTranslation('reminders');
  const invalid = described('breakThrough') as { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
  return (
    <div className="break-through">
      <label className="check">
        <input
          id={id}
          type="checkbox"
          checked={form.breakThrough}
          onChange={(e) => {
            const on = e.target.checked;
            setForm((f) => ({ ...f, breakThrough: on }));
          }}
          aria-invalid={invalid['aria-invalid']}
          aria-describedby={[`${id}-hint`, invalid['aria-describedby']].filter(Boolean).join(' ')}
        />
        <span>{t('breakThrough.label')}</span>
      </label>
      <p id={`${id}-hint`} className="hint">
        {t('breakThrough.hint')}
      </p>
      {err('breakThrough')}
    </div>
  );
}
