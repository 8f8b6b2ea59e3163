import { useTranslation } from 'react-i18next';
import { isTempId } from '../../../lib/offline/syncQueue';
import type { Reminder } from '../../../lib/types';
import { lastDelivery, UNDELIVERED } from './lastDelivery';
import { useDeliveryLogs } from './useDeliveryLogs';

/**
 * Beside an overdue reminder's "Not done yet": how its last ring was delivered (shown on a
 * device, emailed, sent, failed, no device, missed), from its delivery log, which is fetched
 * for overdue reminders only. While the log is loading, or when it cannot be loaded (offline),
 * nothing is said.
 */
export function LastDeliveryBadge({ reminder }: { reminder: Pick<Reminder, 'id' | 'overdue'> }) {
  const { t } = useTranslation('reminders');
  const { data } = useDeliveryLogs(reminder.overdue && !isTempId(reminder.id) ? reminder.id : null);
  const how = data ? lastDelivery(data) : null;
  if (!reminder.overdue || how === null) return null;
  return (
    <span className={`badge${UNDELIVERED.has(how) ? ' warn' : ' muted'}`} data-delivery={how}>
      <span className="visually-hidden">{t('delivery.label')}</span>
      {t(`delivery.${how}`)}
    </span>
  );
}
