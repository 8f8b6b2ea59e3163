import { useEffect } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { ApiError, api, isApiError } from '../../lib/api';
import { showOverdueBadge } from '../../lib/appBadge';
import { getAuthState } from '../../lib/authStore';
import { cacheReminders, cachedReminders, enqueue, pendingActions } from '../../lib/offline/offlineSync';
import { makeTempId } from '../../lib/offline/syncQueue';
import { isArchivedPageKey, swrKeys } from '../../lib/swrKeys';
import type { Reminder, ReminderInput, SnoozeAllAnswer, SnoozeAllInput } from '../../lib/types';
import { overlayPending, tempReminder, withInput } from './actions/pendingOverlay';
import type { ArchivedPage } from './useArchived';

/** The queued (not yet synced) creates and updates stay on screen over any fresh list. */
async function withPending(list: Reminder[]): Promise<Reminder[]> {
  const user = getAuthState().user;
  if (!user) return list;
  const pending = await pendingActions().catch(() => []);
  return pending.length > 0 ? overlayPending(list, pending, user.id) : list;
}

/** Not archived (a cache written before the archived list had pages of its own holds both). */
const notArchived = (list: Reminder[]) => list.filter((r) => !r.is_archived);

async function fetchActive(): Promise<Reminder[]> {
  try {
    const list = notArchived(await api.reminders.list('active'));
    void cacheReminders(list).catch(() => {});
    return await withPending(list);
  } catch (e) {
    // Offline: serve the encrypted local cache.
    if (isApiError(e) && (e.code === 'ERR_NETWORK' || e.code === 'TIMEOUT')) {
      const cached = notArchived(await cachedReminders().catch(() => []));
      const shown = await withPending(cached);
      if (shown.length > 0) return shown;
    }
    throw e;
  }
}

/**
 * The user's active reminders (at most 100), shared by the dashboard and the list. The archived
 * ones come a page at a time (`useArchivedPage`).
 */
export function useReminders() {
  const result = useSWR(swrKeys.reminders('active'), fetchActive, { keepPreviousData: true });
  const overdue = result.data?.filter((r) => r.overdue === true && !r.is_archived).length;
  useEffect(() => {
    if (overdue !== undefined) showOverdueBadge(overdue);
  }, [overdue]);
  return result;
}

/**
 * POST /api/reminders/{id}/skip: skips a repeating reminder's next occurrence (the server adds
 * its date to `recurrence.skip`) and answers the reminder. Through the shared client, but kept
 * here rather than in lib/api.ts, which is part of the initial bundle (`npm run size`).
 */
export function skipNextOccurrence(id: string): Promise<Reminder> {
  return api.request<Reminder>('POST', `/api/reminders/${encodeURIComponent(id)}/skip`);
}

/**
 * POST /api/reminders/snooze-all: snoozes every overdue or ringing occurrence of the person
 * (delivered in the last 24 h, not acted on), for `snooze_minutes` (absent: their default) or
 * until `snooze_until`. Kept
 * here rather than in lib/api.ts for the same reason as skipNextOccurrence.
 */
export function snoozeAll(body: SnoozeAllInput = {}): Promise<SnoozeAllAnswer> {
  return api.request<SnoozeAllAnswer>('POST', '/api/reminders/snooze-all', { body });
}

const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** Create, update and delete with optimistic updates (product spec section 4 "Sync"). */
export function useReminderMutations() {
  const { mutate } = useSWRConfig();
  const key = swrKeys.reminders('active');

  async function create(input: ReminderInput): Promise<Reminder> {
    const user = getAuthState().user;
    // Coded like the server's answer, so the dialog shows it in the reader's language.
    if (!user) throw new ApiError('Authentication required to create reminder', { status: 401, code: 'AUTHENTICATION_REQUIRED' });
    const now = Date.now();
    const temp = tempReminder(input, makeTempId(now), user.id, now);
    if (offline()) {
      await enqueue({ type: 'create', reminderId: temp.id, data: input });
      await mutate(key, (list: Reminder[] = []) => [...list, temp], { revalidate: false });
      return temp;
    }
    let created: Reminder | undefined;
    await mutate(
      key,
      async (list: Reminder[] = []) => {
        created = await api.reminders.create(input);
        return [...list.filter((r) => r.id !== temp.id), created];
      },
      { optimisticData: (list: Reminder[] = []) => [...list, temp], rollbackOnError: true, revalidate: true },
    );
    return created as Reminder;
  }

  /** Sends only the changed fields (`changedFields`): an unchanged past send_at is not sent. */
  async function update(id: string, input: Partial<ReminderInput>): Promise<void> {
    const patch = (list: Reminder[] = []) => list.map((r) => (r.id === id ? withInput(r, input) : r));
    if (offline()) {
      await enqueue({ type: 'update', reminderId: id, data: input });
      await mutate(key, patch, { revalidate: false });
      return;
    }
    await mutate(
      key,
      async (list: Reminder[] = []) => {
        const saved = await api.reminders.update(id, input);
        return list.map((r) => (r.id === id ? saved : r));
      },
      { optimisticData: patch, rollbackOnError: true, revalidate: true },
    );
  }

  /** Delete is never queued offline: it needs the server. An archived one leaves its page at once too. */
  async function remove(id: string): Promise<void> {
    await mutate(isArchivedPageKey, (page?: ArchivedPage) => page && { ...page, items: page.items.filter((r) => r.id !== id) }, { revalidate: false });
    try {
      await mutate(
        key,
        async (list: Reminder[] = []) => {
          await api.reminders.remove(id);
          return list.filter((r) => r.id !== id);
        },
        { optimisticData: (list: Reminder[] = []) => list.filter((r) => r.id !== id), rollbackOnError: true, revalidate: true },
      );
    } finally {
      // The later pages move up by one (or, when it failed, the row comes back).
      void mutate(isArchivedPageKey);
    }
  }

  return { create, update, remove };
}
