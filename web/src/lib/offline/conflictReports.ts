/**
 * Conflicts the sync queue resolved that the person has not been told of yet. offlineSync
 * reports them; the app shell's notice (features/offline) takes them and shows a toast. Kept
 * until taken: the queue can run before the notice has mounted (both start after first paint).
 */
import type { SyncConflict } from './syncConflict';

let untold: SyncConflict[] = [];
const listeners = new Set<() => void>();

export function reportConflicts(conflicts: readonly SyncConflict[]): void {
  if (conflicts.length === 0) return;
  untold = [...untold, ...conflicts];
  for (const l of listeners) l();
}

/** The conflicts not told yet; they are told now (taking them empties the list). */
export function takeConflicts(): SyncConflict[] {
  const taken = untold;
  untold = [];
  return taken;
}

/** Sign-out: one account's conflicts are not told to the next. */
export function clearConflicts(): void {
  untold = [];
}

export function subscribeConflicts(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
