/**
 * "The first screen is painted": work that the first screen does not need (the session check,
 * background tasks, chunks of other pages, overlays) waits for it, so that none of its requests
 * or script time comes before the first paint on a slow phone.
 */
import { useSyncExternalStore } from 'react';

let painted = false;
const waiting: Array<() => void> = [];
const listeners = new Set<() => void>();

function markPainted(): void {
  if (painted) return;
  painted = true;
  // Each piece of held-back work in a task of its own: together they would make one long task
  // on a slow phone.
  for (const fn of waiting.splice(0)) setTimeout(fn);
  setTimeout(() => {
    for (const l of listeners) l();
  });
}

/** Runs `fn` once the first screen is painted (at once if it already is). */
export function afterFirstPaint(fn: () => void): void {
  if (painted) fn();
  else waiting.push(fn);
}

/**
 * Called once the first render has committed: the frame after it has been painted. A hidden tab
 * paints no frame, so a timer stands in.
 */
export function firstRenderCommitted(): void {
  setTimeout(markPainted, 100);
  requestAnimationFrame(() => setTimeout(markPainted));
}

/** Whether the first screen has been painted (re-renders when it is). */
export function useFirstPaintDone(): boolean {
  return useSyncExternalStore(
    (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    () => painted,
  );
}

/** Test helper: as if the first screen were painted. */
export function markPaintedForTests(): void {
  painted = true;
}
