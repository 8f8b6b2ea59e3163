/** Work that starts after the first paint: error reporting (when configured), push subscription health, offline sync, sign-out cleanup. */
import { mutate } from 'swr';
import { installInAppAlerts } from '../features/notifications/inAppAlert';
import { getAuthState, onSignOut, subscribeAuth } from '../lib/authStore';
import { startErrorReporting } from '../lib/errorReporting/start';
import { wipeOfflineData } from '../lib/offline/offlineDb';
import { startOfflineSync, stopOfflineSync } from '../lib/offline/offlineSync';
import { syncSubscription } from '../lib/push/pushClient';
import { pushStateChanged } from '../lib/push/usePushState';

let started = false;

export function startBackgroundTasks(): void {
  if (started) return;
  started = true;
  startErrorReporting();
  // The loaders of the translations that come with later pages (a chunk of their own, kept out
  // of the first screen's JS): ready before the first such page asks for one.
  void import('../i18n/lazyLocales');

  onSignOut(async () => {
    stopOfflineSync();
    await mutate(() => true, undefined, { revalidate: false });
    if (typeof indexedDB !== 'undefined') await wipeOfflineData();
  });

  installInAppAlerts(() => getAuthState().status === 'signedIn');

  let lastUser: string | null = null;
  const onAuth = () => {
    const { user, status } = getAuthState();
    const id = user && status === 'signedIn' ? user.id : null;
    if (id === lastUser) return;
    lastUser = id;
    if (!id) return;
    void startOfflineSync(id).catch((e: unknown) => console.warn('Offline cache unavailable', e));
    void syncSubscription().then((ok) => ok && pushStateChanged());
  };
  subscribeAuth(onAuth);
  onAuth();
}
