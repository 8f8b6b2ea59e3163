/**
 * Conflicts of a queued action with a change someone else made meanwhile (a shared list's
 * reminder, product spec "Offline"): the action resolves at once without undoing the other
 * person's change, and the person is told what happened.
 *
 * - deleted: the server no longer has the reminder. An edit, completion or snooze of it is
 *   dropped (retrying cannot bring it back); a delete of it has simply already happened.
 * - completed: an edit or snooze reached a reminder someone else had completed. The server's
 *   answer stands; the completion is not undone.
 */
import { isApiError } from '../api';
import type { PendingAction } from './syncQueue';

export type SyncConflictKind = 'deleted' | 'completed';

export interface SyncConflict {
  action: PendingAction;
  kind: SyncConflictKind;
  /** the reminder's title as the person knew it, when known (worded without it otherwise) */
  title?: string;
}

/**
 * The server says the reminder is gone: 404 with the API's own NOT_FOUND envelope. A bare 404
 * (a proxy's page, a route the server does not have) is not taken for a deletion: that action
 * is retried as any failure is, rather than dropped.
 */
export function isGone(error: unknown): boolean {
  return isApiError(error, 'NOT_FOUND') && error.status === 404;
}

/** The server's answer (a Reminder) shows it completed: done, or archived, which counts as done. */
export function answerShowsCompleted(answer: unknown): boolean {
  if (!answer || typeof answer !== 'object') return false;
  const r = answer as { status?: unknown; is_archived?: unknown };
  return r.status === 'completed' || r.is_archived === true;
}

/** The answer's title, when it has one. */
export function answerTitle(answer: unknown): string | undefined {
  const title = answer && typeof answer === 'object' ? (answer as { title?: unknown }).title : undefined;
  return typeof title === 'string' && title !== '' ? title : undefined;
}
