/**
 * The pending-action queue (product spec sections 3, 4 and 9).
 *
 * - Actions (create, update, delete, complete, snooze) are processed in order.
 * - Success removes the action. Failure increments retryCount; at 5 failures the action is
 *   dropped and, if notification permission is granted, a system notification titled
 *   "Sync error" (同期エラー: the notifier words it in the reader's language) is shown.
 *   Otherwise a retry is scheduled with backoff min(1 s × 2^n, 60 s).
 * - complete/snooze need reminderId and logId; an unknown type is an error.
 *
 * Storage, API and notifier are injected so the queue runs in tests without a browser.
 */
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

/** Runs one action against the API. Returns the server id for a create. */
export async function executeAction(
  action: PendingAction,
  api: SyncApi,
): Promise<string | undefined> {
  switch (action.type) {
    case 'create': {
      const created = (await api.create(action.data)) as { id?: unknown } | undefined;
      return typeof created?.id === 'string' ? created.id : undefined;
    }
    case 'update':
      if (!action.reminderId) throw new SyncActionError('Missing reminderId for update');
      await api.update(action.reminderId, action.data);
      return undefined;
    case 'delete':
      if (!action.reminderId) throw new SyncActionError('Missing reminderId for delete');
      await api.remove(action.reminderId);
      return undefined;
    case 'complete':
    case 'snooze': {
      if (!action.reminderId || !action.logId) {
        throw new SyncActionError(`Missing reminderId or logId for ${action.type} action`);
      }
      const data = action.data as { snooze_minutes?: unknown; snooze_until?: unknown; action_token?: unknown } | undefined;
      await api.handle({
        reminder_id: action.reminderId,
        log_id: action.logId,
        action: action.type,
        // queued from a notification's link: its token authorizes it, as it would have online
        ...(typeof data?.action_token === 'string' ? { action_token: data.action_token } : {}),
        ...(action.type === 'snooze' && typeof data?.snooze_minutes === 'number' ? { snooze_minutes: data.snooze_minutes } : {}),
        ...(action.type === 'snooze' && typeof data?.snooze_until === 'string' ? { snooze_until: data.snooze_until } : {}),
      });
      return undefined;
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
}): Promise<SyncResult> {
  const { storage, api, notifier } = deps;
  const maxRetries = deps.maxRetries ?? MAX_RETRIES;
  const actions = await storage.list();
  const result: SyncResult = { succeeded: 0, failed: 0, dropped: [], remaining: 0, idMap: {}, errors: [] };
  const blocked = new Set<string>();

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
    try {
      if (action.reminderId && isTempId(action.reminderId) && action.type !== 'create') {
        throw new SyncActionError('Reminder has not been created on the server yet');
      }
      const serverId = await executeAction(action, api);
      if (action.type === 'create' && serverId && action.reminderId) {
        result.idMap[action.reminderId] = serverId;
      }
      if (action.id !== undefined) await storage.remove(action.id);
      result.succeeded++;
    } catch (error) {
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
