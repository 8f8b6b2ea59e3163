/**
 * The titles the person knows the queued actions' reminders by, to name one in a conflict's
 * message ("“Milk” was deleted by someone else…"). Taken before a sync run: once online, the
 * server's fresh list (which replaces both the SWR cache and the offline cache) no longer has
 * a reminder someone else deleted, so afterwards its title is nowhere to be read.
 */
import type { PendingAction } from './syncQueue';

export interface TitleSources {
  /** a title the SWR cache holds for the reminder (its list or its own entry), synchronous */
  cached: (reminderId: string) => string | undefined;
  /** the offline cache's reminders (decrypted); asked only when the others do not know a title */
  stored: () => Promise<{ id: string; title?: unknown }[]>;
}

const usable = (title: unknown): title is string => typeof title === 'string' && title.trim() !== '';

/** The title an edit itself sets: the latest name the person gave the reminder. */
function titleInData(action: PendingAction): string | undefined {
  const title = action.data && typeof action.data === 'object' ? (action.data as { title?: unknown }).title : undefined;
  return usable(title) ? title : undefined;
}

/**
 * Reminder id → title for every queued action on an existing reminder: the queued edit's own
 * title first, then the SWR cache, then the offline cache. A reminder none of them knows is
 * left out (its message is worded without a title).
 */
export async function titlesBeforeSync(actions: readonly PendingAction[], sources: TitleSources): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  const wanted = new Set<string>();
  // Oldest first: a later edit's title replaces an earlier one.
  for (const action of actions) {
    if (!action.reminderId || action.type === 'create') continue;
    wanted.add(action.reminderId);
    const title = titleInData(action);
    if (title) titles.set(action.reminderId, title);
  }
  for (const id of wanted) {
    if (titles.has(id)) continue;
    const title = sources.cached(id);
    if (usable(title)) titles.set(id, title);
  }
  const missing = [...wanted].filter((id) => !titles.has(id));
  if (missing.length === 0) return titles;
  const stored = await sources.stored().catch(() => []);
  for (const r of stored) {
    if (missing.includes(r.id) && usable(r.title)) titles.set(r.id, r.title);
  }
  return titles;
}
