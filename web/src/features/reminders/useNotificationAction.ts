import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import { toast } from '../../components/toast';
import { api } from '../../lib/api';
import { isReminderKey } from '../../lib/swrKeys';

/** The action a notification's button asked for through the page address, if any. */
export function notificationAction(search: string): { reminderId: string; logId: string; action: 'complete' | 'snooze' } | null {
  const q = new URLSearchParams(search);
  const action = q.get('do');
  const reminderId = q.get('reminder');
  const logId = q.get('log');
  if ((action !== 'complete' && action !== 'snooze') || !reminderId || !logId) return null;
  return { reminderId, logId, action };
}

/**
 * Safari shows declarative pushes without the service worker; their Complete/Snooze buttons
 * open `/reminders?reminder=<id>&log=<log>&do=complete|snooze`. The page performs it once (the
 * server's handle is idempotent too) and drops `do` and `log` from the address.
 */
export function useNotificationAction(): void {
  const { t } = useTranslation('reminders');
  const location = useLocation();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const done = useRef<string | null>(null);
  const wanted = notificationAction(location.search);
  const key = wanted ? `${wanted.logId}/${wanted.action}` : null;
  useEffect(() => {
    if (!wanted || done.current === key) return;
    done.current = key;
    const params = new URLSearchParams(location.search);
    params.delete('do');
    params.delete('log');
    navigate(`${location.pathname}?${params.toString()}`, { replace: true });
    api.reminders.handle({ reminder_id: wanted.reminderId, log_id: wanted.logId, action: wanted.action }).then(
      () => {
        toast.success(t('details.fromNotification.done'));
        void mutate(isReminderKey);
      },
      () => toast.error(t('details.fromNotification.failed')),
    );
  });
}
