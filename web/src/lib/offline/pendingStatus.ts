/**
 * How many actions wait in the pending-action queue, for the offline/sync banner, and which
 * reminders they are for, for the "Waiting to sync" badge of a reminder created, edited,
 * completed or snoozed offline. offlineSync publishes both whenever they may have changed (an
 * action queued, one synced or dropped, sign-in and sign-out) and also polls them every 5 s
 * (product spec section 9, "a sync-status poll every 5 s", which also catches another tab's queue).
 */
import { useSyncExternalStore } from 'react';
import { isTempId } from './syncQueue';

export const SYNC_STATUS_POLL_MS = 5_000;

let count = 0;
const listeners = new Set<() => void>();

export function getPendingCount(): number {
  return count;
}

export function setPendingCount(n: number): void {
  const next = Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
  if (next === count) return;
  count = next;
  for (const l of listeners) l();
}

let reminderIds: ReadonlySet<string> = new Set();

export function getPendingReminderIds(): ReadonlySet<string> {
  return reminderIds;
}

/** The reminders that queued actions are for (none: signed out, or all synced). */
export function setPendingReminderIds(ids: Iterable<string>): void {
  const next = new Set(ids);
  if (next.size === reminderIds.size && [...next].every((id) => reminderIds.has(id))) return;
  reminderIds = next;
  for (const l of listeners) l();
}

export function subscribePendingCount(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function usePendingCount(): number {
  return useSyncExternalStore(subscribePendingCount, getPendingCount, getPendingCount);
}

export function usePendingReminderIds(): ReadonlySet<string> {
  return useSyncExternalStore(subscribePendingCount, getPendingReminderIds, getPendingReminderIds);
}

/**
 * A change to this reminder waits in the queue ("Waiting to sync"): it was created offline (a
 * temp id until the server has it) or has a queued edit, completion or snooze.
 */
export function isWaitingToSync(id: string, pendingIds: ReadonlySet<string> = reminderIds): boolean {
  return isTempId(id) || pendingIds.has(id);
}
