/**
 * The pending-action queue (product spec sections 3, 4 and 9).
 *
 * - Actions (create, update, delete, complete, snooze) are processed in order.
 * - Success removes the action. Failure increments retryCount; at 5 failures the action is
 *   dropped and, if notification permission is granted, a system notification titled
 *   "Sync error" (同期エラー: the notifier words it in the reader's language) is shown.
 *   Otherwise a retry is scheduled with backoff min(1 s × 2^n, 60 s).
 * - complete/snooze need reminderId and logId; an unknown type is an error.
 * - Someone else's change wins over a queued one (a shared list's reminder; ./syncConflict):
 *   an action on a reminder the server no longer has (404 NOT_FOUND) is resolved at once, not
 *   retried (a delete of it counts as done, anything else as a "deleted" conflict), and an edit
 *   or snooze answered with the reminder completed is a "completed" conflict. Conflicts are
 *   reported in the result, for the person to be told; they raise no "Sync error".
 *
 * Storage, API and notifier are injected so the queue runs in tests without a browser.
 */
import { answerShowsCompleted, answerTitle, isGone, type SyncConflict } from './syncConflict';

export type PendingActionType = 'create' | 'update' | 'delete' | 'complete' | 'snooze';

export interface PendingAction {
  /** storage key (IndexedDB autoIncrement) */
  id?: number;
  type: PendingActionType;
  reminderId?: string;
  logId?: string;
  data?: unknown;
  timestamp: number;
  retryCount: number;
}

export interface QueueStorage {
  /** all pending actions, oldest first */
  list(): Promise<PendingAction[]>;
  add(action: PendingAction): Promise<number>;
  put(action: PendingAction): Promise<void>;
  remove(id: number): Promise<void>;
}

export interface SyncApi {
  create(data: unknown): Promise<{ id: string } | unknown>;
  update(reminderId: string, data: unknown): Promise<unknown>;
  remove(reminderId: string): Promise<unknown>;
  handle(input: {
    reminder_id: string;
    log_id: string;
    action: 'complete' | 'snooze';
    snooze_minutes?: number;
    snooze_until?: string;
    action_token?: string;
  }): Promise<unknown>;
}

export interface SyncNotifier {
  permission(): NotificationPermission | 'unsupported';
  /** a dropped action: the notifier words the "Sync error" notification in the reader's language */
  showDropped(action: PendingAction, error: unknown): void | Promise<void>;
}

export const MAX_RETRIES = 5;
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_MAX_MS = 60_000;
export const TEMP_ID_PREFIX = 'temp-';

/** min(1 s × 2^n, 60 s) */
export function backoffDelay(n: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, n), BACKOFF_MAX_MS);
}

export class SyncActionError extends Error {}

export function isTempId(id: string | undefined): boolean {
  return typeof id === 'string' && id.startsWith(TEMP_ID_PREFIX);
}

export function makeTempId(now: number): string {
  return `${TEMP_ID_PREFIX}${now}`;
}

/** The server id in a create's answer. */
function createdId(answer: unknown): string | undefined {
  const id = answer && typeof answer === 'object' ? (answer as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** Runs one action against the API. Returns the server's answer (the reminder, for all but a delete). */
export async function executeAction(action: PendingAction, api: SyncApi): Promise<unknown> {
  switch (action.type) {
    case 'create':
      return api.create(action.data);
    case 'update':
      if (!action.reminderId) throw new SyncActionError('Missing reminderId for update');
      return api.update(action.reminderId, action.data);
    case 'delete':
      if (!action.reminderId) throw new SyncActionError('Missing reminderId for delete');
      return api.remove(action.reminderId);
    case 'complete':
    case 'snooze': {
      if (!action.reminderId || !action.logId) {
        throw new SyncActionError(`Missing reminderId or logId for ${action.type} action`);
      }
      const data = action.data as { snooze_minutes?: unknown; snooze_until?: unknown; action_token?: unknown } | undefined;
      return api.handle({
        reminder_id: action.reminderId,
        log_id: action.logId,
        action: action.type,
        // queued from a notification's link: its token authorizes it, as it would have online
        ...(typeof data?.action_token === 'string' ? { action_token: data.action_token } : {}),
        ...(action.type === 'snooze' && typeof data?.snooze_minutes === 'number' ? { snooze_minutes: data.snooze_minutes } : {}),
        ...(action.type === 'snooze' && typeof data?.snooze_until === 'string' ? { snooze_until: data.snooze_until } : {}),
      });
    }
    default:
      throw new SyncActionError(`Unknown action type: ${String((action as { type: unknown }).type)}`);
  }
}

export interface SyncResult {
  succeeded: number;
  failed: number;
  dropped: PendingAction[];
  /** actions left in the queue after this run */
  remaining: number;
  /** temp id -> server id for creates that went through */
  idMap: Record<string, string>;
  errors: { action: PendingAction; error: unknown }[];
  /** actions resolved in favour of someone else's change (removed from the queue, not failed) */
  conflicts: SyncConflict[];
}

/** An empty result, to build on. */
export function emptySyncResult(): SyncResult {
  return { succeeded: 0, failed: 0, dropped: [], remaining: 0, idMap: {}, errors: [], conflicts: [] };
}

/**
 * Process the queue once, in order. When an action fails, later actions for the same reminder
 * wait for the next run so that per-reminder order is kept; other reminders go ahead.
 */
export async function processQueue(deps: {
  storage: QueueStorage;
  api: SyncApi;
  notifier?: SyncNotifier;
  maxRetries?: number;
  /**
   * Reminder id → the title the person knows it by, to name a conflict whose answer has none.
   * Asked once the queue is listed, before any request: after them, the server's fresh list
   * no longer has a reminder someone else deleted (./conflictTitles).
   */
  titles?: (actions: readonly PendingAction[]) => Promise<ReadonlyMap<string, string>>;
}): Promise<SyncResult> {
  const { storage, api, notifier } = deps;
  const maxRetries = deps.maxRetries ?? MAX_RETRIES;
  const actions = await storage.list();
  const titles = deps.titles ? await deps.titles(actions) : new Map<string, string>();
  const result = emptySyncResult();
  const blocked = new Set<string>();
  // Reminders the server answered 404 for: later actions on them need not ask again.
  const gone = new Set<string>();
  // Reminders this run completed itself: a later answer showing them completed is no conflict.
  const completedHere = new Set<string>();

  /** A conflict, named by the server's answer or else by the title known before the run. */
  const conflict = (action: PendingAction, kind: SyncConflict['kind'], answer?: unknown) => {
    const title = answerTitle(answer) ?? (action.reminderId ? titles.get(action.reminderId) : undefined);
    result.conflicts.push({ action, kind, ...(title ? { title } : {}) });
  };
  /** The reminder is gone: the action leaves the queue; only a delete of it got what it wanted. */
  const settleGone = async (action: PendingAction) => {
    if (action.reminderId) gone.add(action.reminderId);
    if (action.id !== undefined) await storage.remove(action.id);
    if (action.type === 'delete') result.succeeded++;
    else conflict(action, 'deleted');
  };

  for (const original of actions) {
    let action = original;
    // A create that succeeded earlier in this run gave its temp id a server id.
    if (action.reminderId && result.idMap[action.reminderId]) {
      action = { ...action, reminderId: result.idMap[action.reminderId] };
    }
    if (action.reminderId && blocked.has(action.reminderId)) {
      if (action !== original) await storage.put(action);
      result.remaining++;
      continue;
    }
    if (action.reminderId && gone.has(action.reminderId)) {
      await settleGone(action);
      continue;
    }
    try {
      if (action.reminderId && isTempId(action.reminderId) && action.type !== 'create') {
        throw new SyncActionError('Reminder has not been created on the server yet');
      }
      const answer = await executeAction(action, api);
      const serverId = action.type === 'create' ? createdId(answer) : undefined;
      if (serverId && action.reminderId) result.idMap[action.reminderId] = serverId;
      if (action.id !== undefined) await storage.remove(action.id);
      result.succeeded++;
      if (action.reminderId && action.type === 'complete') completedHere.add(action.reminderId);
      const completedElsewhere =
        (action.type === 'update' || action.type === 'snooze') &&
        answerShowsCompleted(answer) &&
        !(action.reminderId && completedHere.has(action.reminderId));
      if (completedElsewhere) conflict(action, 'completed', answer);
    } catch (error) {
      // A create has no reminder to be gone yet: its 404 is a failure like any other.
      if (isGone(error) && action.type !== 'create') {
        await settleGone(action);
        continue;
      }
      result.failed++;
      result.errors.push({ action, error });
      const retryCount = action.retryCount + 1;
      if (action.reminderId) blocked.add(action.reminderId);
      if (retryCount >= maxRetries) {
        if (action.id !== undefined) await storage.remove(action.id);
        const dropped = { ...action, retryCount };
        result.dropped.push(dropped);
        if (notifier && notifier.permission() === 'granted') {
          await notifier.showDropped(dropped, error);
        }
      } else {
        await storage.put({ ...action, retryCount });
        result.remaining++;
      }
    }
  }
  return result;
}

/**
 * Schedules queue runs: 100 ms after enqueueing when online, retries with backoff after a
 * failed run, and a periodic run every 5 minutes while online. Timers are injectable.
 */
export const SYNC_AFTER_ENQUEUE_MS = 100;
export const PERIODIC_SYNC_MS = 5 * 60_000;

export interface SyncSchedulerDeps {
  run: () => Promise<SyncResult>;
  isOnline: () => boolean;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  onResult?: (r: SyncResult) => void;
}

export class SyncScheduler {
  private timer: unknown = null;
  private running: Promise<void> | null = null;
  private failedRuns = 0;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly deps: SyncSchedulerDeps) {
    this.setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  }

  /** Delay of the next retry, given the number of consecutive failed runs so far. */
  get consecutiveFailures(): number {
    return this.failedRuns;
  }

  schedule(ms: number): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = this.setTimer(() => {
      this.timer = null;
      void this.runNow();
    }, ms);
  }

  /** Call after queueing an action. */
  nudge(): void {
    if (this.deps.isOnline()) this.schedule(SYNC_AFTER_ENQUEUE_MS);
  }

  async runNow(): Promise<void> {
    if (!this.deps.isOnline()) return;
    if (this.running) return this.running;
    this.running = (async () => {
      try {
        const r = await this.deps.run();
        this.deps.onResult?.(r);
        if (r.remaining > 0 && r.failed > 0) {
          this.schedule(backoffDelay(this.failedRuns));
          this.failedRuns++;
        } else {
          this.failedRuns = 0;
          this.schedule(PERIODIC_SYNC_MS);
        }
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  stop(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }
}

/** An in-memory QueueStorage, for tests and browsers without IndexedDB. */
export function memoryQueueStorage(initial: PendingAction[] = []): QueueStorage & { items: PendingAction[] } {
  let nextId = 1;
  const items: PendingAction[] = initial.map((a) => ({ ...a, id: a.id ?? nextId++ }));
  nextId = Math.max(nextId, ...items.map((a) => (a.id ?? 0) + 1));
  return {
    items,
    async list() {
      return [...items].sort((a, b) => a.timestamp - b.timestamp || (a.id ?? 0) - (b.id ?? 0)).map((a) => ({ ...a }));
    },
    async add(action) {
      const id = nextId++;
      items.push({ ...action, id });
      return id;
    },
    async put(action) {
      const i = items.findIndex((a) => a.id === action.id);
      if (i >= 0) items[i] = { ...action };
      else items.push({ ...action });
    },
    async remove(id) {
      const i = items.findIndex((a) => a.id === id);
      if (i >= 0) items.splice(i, 1);
    },
  };
}
