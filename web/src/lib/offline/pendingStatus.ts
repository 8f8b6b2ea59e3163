/**
 * How many actions wait in the pending-action queue, for the offline/sync banner. offlineSync
 * publishes the number whenever it may have changed (an action queued, one synced or dropped,
 * sign-in and sign-out) and also polls it every 5 s (product spec section 9, "a sync-status poll
 * every 5 s", which also catches another tab's queue).
 */
import { useSyncExternalStore } from 'react';

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

export function subscribePendingCount(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function usePendingCount(): number {
  return useSyncExternalStore(subscribePendingCount, getPendingCount, getPendingCount);
}
