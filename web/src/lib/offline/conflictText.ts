import type { TFunction } from 'i18next';
import type { SyncConflict } from './syncConflict';

/** One conflict in the reader's language (namespace offline): named by its title, or worded without one. */
export function conflictMessage(t: TFunction, conflict: SyncConflict): string {
  return conflict.title
    ? t(`offline:conflict.${conflict.kind}`, { title: conflict.title })
    : t(`offline:conflict.${conflict.kind}Untitled`);
}

/**
 * The one toast for a sync run's conflicts (toasts show one at a time, so a second would hide
 * the first): each reminder and outcome said once, however many of its actions met it. Null
 * when there is nothing to tell.
 */
export function conflictToastText(t: TFunction, conflicts: readonly SyncConflict[]): string | null {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const c of conflicts) {
    const key = `${c.kind}:${c.action.reminderId ?? c.action.id ?? lines.length}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const line = conflictMessage(t, c);
    // Two untitled ones read the same: once is enough.
    if (!lines.includes(line)) lines.push(line);
  }
  return lines.length > 0 ? lines.join(' ') : null;
}
