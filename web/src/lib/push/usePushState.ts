import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import {
  currentSubscription,
  getSubscriptionHealth,
  isServerFailing,
  lastEnableFailure,
  notificationPermission,
  pushSupported,
  subscribeSubscriptionHealth,
  wasEverEnabled,
  type PushErrorCode,
} from './pushClient';

export interface PushState {
  supported: boolean;
  permission: NotificationPermission | undefined;
  subscribed: boolean | undefined;
  /** the start-up check could not keep this device subscribed: it has stopped receiving */
  lost: boolean;
  /** the server lists this device's subscription as failing */
  serverFailing: boolean;
  /** this browser was subscribed here before (and not switched off since) */
  everEnabled: boolean;
  /** why the last attempt to enable notifications here failed, if it did */
  lastFailure: PushErrorCode | null;
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
  const lost = useSyncExternalStore(subscribeSubscriptionHealth, getSubscriptionHealth, getSubscriptionHealth) === 'lost';
  const serverFailing = useSyncExternalStore(subscribeSubscriptionHealth, isServerFailing, isServerFailing);
  const lastFailure = useSyncExternalStore(subscribeSubscriptionHealth, lastEnableFailure, lastEnableFailure);
  // enabling and switching off both tell the health listeners after changing it
  const everEnabled = useSyncExternalStore(subscribeSubscriptionHealth, wasEverEnabled, wasEverEnabled);

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

  return { supported, permission, subscribed, lost, serverFailing, everEnabled, lastFailure, refresh };
}
