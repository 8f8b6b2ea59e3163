import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../../../lib/router';
import { useSWRConfig } from 'swr';
import { toast } from '../../../components/toast';
import { api } from '../../../lib/api';
import { enqueue } from '../../../lib/offline/offlineSync';
import { isReminderKey } from '../../../lib/swrKeys';

export interface NotificationAction {
  reminderId: string;
  logId: string;
  action: 'complete' | 'snooze';
  /** the push's action token (`t`), which authorizes the action; null when the link has none */
  token: string | null;
}

/** The action a notification's button asked for through the page address, if any. */
export function notificationAction(search: string): NotificationAction | null {
  const q = new URLSearchParams(search);
  const action = q.get('do');
  const reminderId = q.get('reminder');
  const logId = q.get('log');
  if ((action !== 'complete' && action !== 'snooze') || !reminderId || !logId) return null;
  return { reminderId, logId, action, token: q.get('t') || null };
}

/**
 * Safari shows declarative pushes without the service worker; their Complete/Snooze buttons
 * open `/reminders?reminder=<id>&log=<log>&do=complete|snooze&t=<action token>`. Deep links act
 * only with their token (decisions.md): with `t`, the page performs the action once, authorized
 * by it (`action_token`; the server's handle is idempotent too); without it, nothing happens
 * until the person confirms (`asking`), and then with the session. Either way `do`, `log` and
 * `t` leave the address at once (`reminder` stays: it opens the reminder's details). Offline,
 * the action goes to the pending-action queue, as from the details.
 */
export function useNotificationAction(): { asking: NotificationAction | null; confirm: () => void; cancel: () => void } {
  const { t } = useTranslation('reminders');
  const location = useLocation();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const done = useRef<string | null>(null);
  const [asking, setAsking] = useState<NotificationAction | null>(null);
  const { pathname, search } = location;

  const perform = useCallback(
    (a: NotificationAction) => {
      // Offline, queued as the details' Complete and Snooze are (with the token, which the queue
      // keeps sealed), and sent once back online.
      if (!navigator.onLine) {
        enqueue({ type: a.action, reminderId: a.reminderId, logId: a.logId, ...(a.token ? { data: { action_token: a.token } } : {}) }).then(
          () => {
            toast.success(t('toast.queued'));
            void mutate(isReminderKey);
          },
          () => toast.error(t('details.fromNotification.failed')),
        );
        return;
      }
      api.reminders
        .handle({ reminder_id: a.reminderId, log_id: a.logId, action: a.action, ...(a.token ? { action_token: a.token } : {}) })
        .then(
          () => {
            toast.success(t('details.fromNotification.done'));
            void mutate(isReminderKey);
          },
          () => toast.error(t('details.fromNotification.failed')),
        );
    },
    [mutate, t],
  );

  useEffect(() => {
    const wanted = notificationAction(search);
    const key = wanted ? `${wanted.logId}/${wanted.action}` : null;
    if (!wanted || done.current === key) return;
    done.current = key;
    const params = new URLSearchParams(search);
    for (const p of ['do', 'log', 't']) params.delete(p);
    navigate(`${pathname}?${params.toString()}`, { replace: true });
    if (wanted.token) perform(wanted);
    else setAsking(wanted);
  }, [pathname, search, navigate, perform]);

  return {
    asking,
    confirm: () => {
      if (asking) perform({ ...asking, token: null });
      setAsking(null);
    },
    cancel: () => setAsking(null),
  };
}
