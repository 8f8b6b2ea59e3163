/**
 * Glue between the encrypted offline store, the sync queue and the API for the signed-in user.
 * Loaded lazily (after first paint).
 */
import { mutate, SWRConfig, unstable_serialize } from 'swr';
import { i18n } from '../../i18n';
import { api } from '../api';
import { isReminderKey, swrKeys } from '../swrKeys';
import type { List, Reminder, ReminderInput } from '../types';
import { clearConflicts, reportConflicts } from './conflictReports';
import { titlesBeforeSync } from './conflictTitles';
import { OfflineStore } from './offlineDb';
import { setPendingCount, setPendingReminderIds, SYNC_STATUS_POLL_MS } from './pendingStatus';
import { syncErrorNotification } from './syncErrorText';
import type { SyncConflict } from './syncConflict';
import { processQueue, SyncScheduler, type PendingAction, type QueueStorage, type SyncApi, type SyncNotifier } from './syncQueue';

let current: { userId: string; store: OfflineStore; scheduler: SyncScheduler; refreshCount: () => void; stop: () => void } | null = null;
const readyWaiters = new Set<() => void>();

/** Resolves once the store is open (or after `ms`): an offline reload asks for the cache early. */
function whenReady(ms: number): Promise<void> {
  if (current) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      readyWaiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    readyWaiters.add(done);
  });
}

const notifier: SyncNotifier = {
  permission: () => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission),
  async showDropped(action, error) {
    await i18n.loadNamespaces(['offline', 'errors']);
    const { title, body } = syncErrorNotification(i18n.t.bind(i18n), action, error);
    const reg = await navigator.serviceWorker?.getRegistration();
    if (reg) await reg.showNotification(title, { body, tag: 'sync-error' });
    else new Notification(title, { body });
  },
};

const syncApi: SyncApi = {
  create: (d) => api.reminders.create(d as ReminderInput),
  update: (id, d) => api.reminders.update(id, d as Partial<ReminderInput>),
  remove: (id) => api.reminders.remove(id),
  handle: (input) => api.reminders.handle(input),
};

/** A reminder's title in the app's SWR cache: its own entry (details) or the active list. */
function swrCachedTitle(id: string): string | undefined {
  const cache = SWRConfig.defaultValue.cache;
  const one = cache.get(unstable_serialize(swrKeys.reminder(id)))?.data as Reminder | undefined;
  if (one?.title) return one.title;
  const list = cache.get(unstable_serialize(swrKeys.reminders('active')))?.data as Reminder[] | undefined;
  return Array.isArray(list) ? list.find((r) => r.id === id)?.title : undefined;
}

/** A reminder someone else deleted leaves the offline cache too: an offline reload does not show it again. */
async function forgetDeleted(store: OfflineStore, conflicts: readonly SyncConflict[]): Promise<void> {
  for (const c of conflicts) {
    if (c.kind === 'deleted' && c.action.reminderId) await store.deleteReminder(c.action.reminderId);
  }
}

export async function startOfflineSync(userId: string): Promise<void> {
  if (current?.userId === userId) return;
  stopOfflineSync();
  if (typeof indexedDB === 'undefined') return;
  const store = await OfflineStore.open(userId);
  // The banner's pending count and the reminders' "Waiting to sync": refreshed after every
  // change the queue makes, and polled.
  const refreshCount = () => {
    if (current?.store !== store) return;
    void store.pendingCount().then((n) => current?.store === store && setPendingCount(n), () => {});
    void store.pendingReminderIds().then((ids) => current?.store === store && setPendingReminderIds(ids), () => {});
  };
  const queue = store.queue();
  const counted: QueueStorage = {
    ...queue,
    remove: async (id) => {
      await queue.remove(id);
      refreshCount();
    },
  };
  const scheduler = new SyncScheduler({
    isOnline: () => navigator.onLine,
    run: () =>
      processQueue({
        storage: counted,
        notifier,
        api: syncApi,
        titles: (actions) => titlesBeforeSync(actions, { cached: swrCachedTitle, stored: () => store.getReminders() }),
      }),
    onResult: (r) => {
      refreshCount();
      if (r.succeeded > 0 || r.dropped.length > 0 || r.conflicts.length > 0) void mutate(isReminderKey);
      if (r.conflicts.length > 0) {
        void forgetDeleted(store, r.conflicts).catch(() => {});
        reportConflicts(r.conflicts);
      }
    },
  });
  const onOnline = () => void scheduler.runNow();
  window.addEventListener('online', onOnline);
  const poll = setInterval(refreshCount, SYNC_STATUS_POLL_MS);
  current = {
    userId,
    store,
    scheduler,
    refreshCount,
    stop: () => {
      clearInterval(poll);
      window.removeEventListener('online', onOnline);
      scheduler.stop();
      store.db.close();
      setPendingCount(0);
      setPendingReminderIds([]);
      clearConflicts();
    },
  };
  refreshCount();
  for (const done of [...readyWaiters]) done();
  void scheduler.runNow();
}

export function stopOfflineSync(): void {
  current?.stop();
  current = null;
}

/** Queue an action for later (offline create/update) and nudge the scheduler. */
export async function enqueue(action: Omit<PendingAction, 'timestamp' | 'retryCount'>): Promise<void> {
  // The store opens after the first paint: an action from the link the app was opened with
  // (a notification's Complete or Snooze) can come before it.
  await whenReady(3_000);
  if (!current) throw new Error('Offline sync not started');
  await current.store.queue().add({ ...action, timestamp: Date.now(), retryCount: 0 });
  current.refreshCount();
  current.scheduler.nudge();
}

/** Cache the latest server list (encrypted) for offline reading. */
export async function cacheReminders(list: Reminder[]): Promise<void> {
  if (!current) return;
  await current.store.replaceReminders(list as never);
}

export async function cachedReminders(): Promise<Reminder[]> {
  await whenReady(3_000);
  if (!current) return [];
  return (await current.store.getReminders()) as unknown as Reminder[];
}

/** Keep the latest lists (sealed) for offline reading: the reminders page names and filters by them. */
export async function cacheLists(lists: List[]): Promise<void> {
  if (!current) return;
  await current.store.replaceLists(lists);
}

/** The lists last kept on this device, or null. */
export async function cachedLists(): Promise<List[] | null> {
  await whenReady(3_000);
  if (!current) return null;
  return (await current.store.getLists()) as List[] | null;
}

/** The queued actions (decrypted), oldest first. */
export async function pendingActions(): Promise<PendingAction[]> {
  if (!current) return [];
  return current.store.queue().list();
}

export async function pendingCount(): Promise<number> {
  if (!current) return 0;
  return current.store.pendingCount();
}
