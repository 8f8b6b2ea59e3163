import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { QuietHours } from '../../lib/types';
import { fieldErrorProps } from './fieldErrors';

/** What quiet hours start as when turned on. */
export const DEFAULT_QUIET_HOURS: QuietHours = { start: '22:00', end: '07:00' };

/**
 * Settings → quiet hours (decisions.md "Reach and rhythm"): off, or from a time to a time (across
 * midnight when the end is earlier). Rings in them are held until they end; reminders set to ring
 * during quiet hours ring anyway. `errors`: the server's refusals by field path.
 */
export function QuietHoursSection({
  value,
  onChange,
  errors,
}: {
  value: QuietHours | null | undefined;
  onChange: (v: QuietHours | null) => void;
  errors: Readonly<Record<string, string>>;
}) {
  const { t } = useTranslation('settings');
  const ids = useId();
  // Turned off and on again before saving: the times the person had.
  const [last, setLast] = useState<QuietHours>(value ?? DEFAULT_QUIET_HOURS);
  const { error, described } = fieldErrorProps(errors, ids);
  const on = !!value;
  const set = (part: keyof QuietHours, time: string) => {
    if (!value) return;
    const next = { ...value, [part]: time.slice(0, 5) };
    setLast(next);
    onChange(next);
  };
  const overnight = value && value.end < value.start;
  // From when to when, said once the times differ (the same time twice is refused).
  const spanId = value && value.start !== value.end ? `${ids}-span` : undefined;

  return (
    <fieldset className="settings-group" aria-describedby={`${ids}-intro`}>
      <legend>{t('quiet.title')}</legend>
      <p id={`${ids}-intro`} className="hint">
        {t('quiet.intro')}
      </p>
      <label className="check">
        <input type="checkbox" role="switch" checked={on} onChange={(e) => onChange(e.target.checked ? last : null)} {...described('quiet_hours')} />
        <span>{t('quiet.on')}</span>
      </label>
      {error('quiet_hours')}
      {value && (
        <>
          <div className="grid-2">
            <div>
              <label htmlFor={`${ids}-start`}>{t('quiet.start')}</label>
              <input
                id={`${ids}-start`}
                type="time"
                required
                value={value.start}
                onChange={(e) => set('start', e.target.value)}
                {...described('quiet_hours.start', spanId)}
              />
              {error('quiet_hours.start')}
            </div>
            <div>
              <label htmlFor={`${ids}-end`}>{t('quiet.end')}</label>
              <input
                id={`${ids}-end`}
                type="time"
                required
                value={value.end}
                onChange={(e) => set('end', e.target.value)}
                {...described('quiet_hours.end', spanId)}
              />
              {error('quiet_hours.end')}
            </div>
          </div>
          {spanId && (
            <p id={spanId} className="hint">
              {t(overnight ? 'quiet.overnight' : 'quiet.sameDay', { start: value.start, end: value.end })}
            </p>
          )}
        </>
      )}
    </fieldset>
  );
}
