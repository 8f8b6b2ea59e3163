import { useTranslation } from 'react-i18next';
import type { Dates } from '../../../shared/useDates';
import { alertText } from '../alarmText';
import type { PastAlerts } from './pastAlerts';

/** The id of the warning about one alert (its chip's remove button is described by it). */
export const pastAlertId = (id: string, minutes: number) => `${id}-past-${minutes}`;

/**
 * One line per alert whose time has already passed: a one-time reminder's will not ring; a
 * repeating one's misses only the first time. Saving stays allowed (the server accepts it).
 */
export function PastAlertWarnings({ id, past, timezone, dates }: { id: string; past: PastAlerts; timezone: string; dates: Dates }) {
  const { t } = useTranslation('reminders');
  return (
    <div className="alert-passed" role="status">
      {past.minutes.map((m) => (
        <p key={m} id={pastAlertId(id, m)}>
          {past.recurring
            ? t('alarms.passedFirst', { alert: alertText(m, t), when: dates.when(past.first, timezone) })
            : t('alarms.passed', { alert: alertText(m, t) })}
        </p>
      ))}
    </div>
  );
}
