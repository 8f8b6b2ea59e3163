import { useTranslation } from 'react-i18next';
import { SNOOZE_PRESETS } from '../../../lib/types';
import { pickBounds, type SnoozeClock } from './snoozeUntil';
import type { SnoozeChoice, SnoozeState } from './useSnoozeChoice';

/**
 * Snooze in a reminder's details: for the presets' minutes, until this evening (while it is
 * ahead), tomorrow morning or a picked time (a date-time field within the server's 7 days), and
 * the button that does it.
 */
export function SnoozeMenu({
  id,
  snooze,
  clock,
  disabled,
  onSnooze,
}: {
  id: string;
  snooze: SnoozeState;
  clock: SnoozeClock;
  disabled: boolean;
  onSnooze: () => void;
}) {
  const { t } = useTranslation('reminders');
  return (
    <span className="snooze-group">
      <label className="visually-hidden" htmlFor={`snooze-${id}`}>
        {t('details.snoozeFor')}
      </label>
      <select id={`snooze-${id}`} value={snooze.choice} onChange={(e) => snooze.choose(e.target.value as SnoozeChoice)} disabled={disabled}>
        {SNOOZE_PRESETS.map((m) => (
          <option key={m} value={m}>
            {t('details.snoozeMinutes', { n: m })}
          </option>
        ))}
        {snooze.evening && <option value="evening">{t('details.snoozeEvening', { time: clock.eveningTime })}</option>}
        <option value="morning">{t('details.snoozeMorning', { time: clock.morningTime })}</option>
        <option value="pick">{t('details.snoozePick')}</option>
      </select>
      {snooze.choice === 'pick' && (
        <>
          <label className="visually-hidden" htmlFor={`snooze-at-${id}`}>
            {t('details.snoozePickLabel')}
          </label>
          <input
            id={`snooze-at-${id}`}
            type="datetime-local"
            value={snooze.picked}
            {...pickBounds(snooze.now, clock.timezone)}
            onChange={(e) => snooze.pick(e.target.value)}
            disabled={disabled}
            {...(snooze.pickError ? { 'aria-invalid': true, 'aria-describedby': `snooze-at-${id}-err` } : {})}
          />
        </>
      )}
      <button type="button" className="button small secondary" disabled={disabled} onClick={onSnooze}>
        {/^\d+$/.test(snooze.choice) ? t('details.snooze', { n: Number(snooze.choice) }) : t('details.snoozeSubmit')}
      </button>
    </span>
  );
}
