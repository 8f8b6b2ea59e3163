import { useCallback, useEffect, useState } from 'react';
import { currentSubscription, notificationPermission, pushSupported } from './pushClient';

export interface PushState {
  supported: boolean;
  permission: NotificationPermission | undefined;
  subscribed: boolean | undefined;
  refresh: () => void;
}

const listeners = new Set<() => void>();

/** Tell every usePushState hook to re-read (after enabling/disabling). */
export function pushStateChanged(): void {
  for (const l of listeners) l();
}

export function usePushState(): PushState {
  const supported = pushSupported();
  const [permission, setPermission] = useState<NotificationPermission | undefined>(undefined);
  const [subscribed, setSubscribed] = useState<boolean | undefined>(undefined);

  const refresh = useCallback(() => {
    const p = notificationPermission();
    setPermission(p === 'unsupported' ? undefined : p);
    currentSubscription().then(
      (s) => setSubscribed(s !== null),
      () => setSubscribed(false),
    );
  }, []);

  useEffect(() => {
    refresh();
    listeners.add(refresh);
    const onVisible = () => document.visibilityState === 'visible' && refresh();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      listeners.delete(refresh);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [refresh]);

  return { supported, permission, subscribed, refresh };
}
