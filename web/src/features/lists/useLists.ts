/**
 * The user's lists: read once per page (SWR, key `swrKeys.lists()`), kept sealed on this device
 * for offline reading (the reminders page names and filters by them offline too), and changed
 * through the mutations below, which revalidate the lists and every reminder key after each
 * change (a deleted list takes its reminders; counts move).
 */
import useSWR, { useSWRConfig } from 'swr';
import { isApiError } from '../../lib/api';
import { cacheLists, cachedLists } from '../../lib/offline/offlineSync';
import { isReminderKey, swrKeys } from '../../lib/swrKeys';
import type { List, ListInput, ListPatch, Reminder } from '../../lib/types';
import { createList, deleteList, fetchLists, updateList } from './listsApi';

/** The server's list, kept for offline; offline (no connection, timeout), the one kept last. */
export async function loadLists(): Promise<List[]> {
  try {
    const lists = await fetchLists();
    void cacheLists(lists).catch(() => {});
    return lists;
  } catch (e) {
    if (isApiError(e) && (e.code === 'ERR_NETWORK' || e.code === 'TIMEOUT')) {
      const kept = await cachedLists().catch(() => null);
      if (kept && kept.length > 0) return kept;
    }
    throw e;
  }
}

/** Every list the user belongs to (the default list first). */
export function useLists() {
  return useSWR(swrKeys.lists(), loadLists, { keepPreviousData: true });
}

/** Create, rename/recolour and delete; each needs the network (not queued offline) and revalidates lists and reminders. */
export function useListMutations() {
  const { mutate } = useSWRConfig();
  const refresh = async () => {
    await Promise.all([mutate(swrKeys.lists()), mutate(isReminderKey)]);
  };

  async function create(input: ListInput): Promise<List> {
    const list = await createList(input);
    await refresh();
    return list;
  }

  async function update(id: string, patch: ListPatch): Promise<List> {
    try {
      const list = await updateList(id, patch);
      await refresh();
      return list;
    } catch (e) {
      // Gone meanwhile (deleted on another device): the lists show that.
      if (isApiError(e, 'NOT_FOUND')) void refresh();
      throw e;
    }
  }

  async function remove(id: string): Promise<void> {
    try {
      await deleteList(id);
    } catch (e) {
      if (!isApiError(e, 'NOT_FOUND')) throw e;
      // Already gone: what the person asked for is done.
    }
    // Its reminders leave the page at once; the server's lists and reminders follow.
    await mutate(swrKeys.reminders('active'), (all?: Reminder[]) => all?.filter((r) => r.list_id !== id), { revalidate: false });
    await refresh();
  }

  return { create, update, remove };
}
