import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../api';
import {
  SyncScheduler,
  backoffDelay,
  emptySyncResult,
  executeAction,
  memoryQueueStorage,
  processQueue,
  type PendingAction,
  type SyncApi,
  type SyncResult,
} from './syncQueue';

function fakeApi(overrides: Partial<SyncApi> = {}) {
  const calls: string[] = [];
  const api: SyncApi = {
    create: vi.fn(async (d: unknown) => {
      calls.push(`create:${(d as { title: string }).title}`);
      return { id: 'srv-1' };
    }),
    update: vi.fn(async (id: string) => {
      calls.push(`update:${id}`);
    }),
    remove: vi.fn(async (id: string) => {
      calls.push(`delete:${id}`);
    }),
    handle: vi.fn(async (input) => {
      calls.push(`${input.action}:${input.reminder_id}:${input.log_id}`);
    }),
    ...overrides,
  };
  return { api, calls };
}

const act = (p: Partial<PendingAction> & Pick<PendingAction, 'type'>, t: number): PendingAction => ({
  timestamp: t,
  retryCount: 0,
  ...p,
});

describe('backoffDelay', () => {
  it('is min(1 s × 2^n, 60 s)', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 10].map(backoffDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000,
    ]);
  });
});

describe('executeAction', () => {
  it('requires reminderId and logId for complete and snooze', async () => {
    const { api } = fakeApi();
    await expect(executeAction(act({ type: 'complete', reminderId: 'r1' }, 1), api)).rejects.toThrow(
      'Missing reminderId or logId',
    );
    await expect(executeAction(act({ type: 'snooze', logId: 'l1' }, 1), api)).rejects.toThrow(
      'Missing reminderId or logId',
    );
  });
  it('rejects an unknown type', async () => {
    const { api } = fakeApi();
    await expect(executeAction({ type: 'explode' as never, timestamp: 1, retryCount: 0 }, api)).rejects.toThrow(
      'Unknown action type: explode',
    );
  });
  it('passes snooze minutes', async () => {
    const { api } = fakeApi();
    await executeAction(act({ type: 'snooze', reminderId: 'r', logId: 'l', data: { snooze_minutes: 15 } }, 1), api);
    expect(api.handle).toHaveBeenCalledWith({ reminder_id: 'r', log_id: 'l', action: 'snooze', snooze_minutes: 15 });
  });
  it('passes a snooze-until instant', async () => {
    const { api } = fakeApi();
    await executeAction(act({ type: 'snooze', reminderId: 'r', logId: 'l', data: { snooze_until: '2026-11-26T08:00:00+09:00' } }, 1), api);
    expect(api.handle).toHaveBeenCalledWith({ reminder_id: 'r', log_id: 'l', action: 'snooze', snooze_until: '2026-11-26T08:00:00+09:00' });
  });
});

describe('a notification link\'s action queued offline', () => {
  it('passes its action token, for complete and snooze', async () => {
    const { api } = fakeApi();
    await executeAction(act({ type: 'complete', reminderId: 'r', logId: 'l', data: { action_token: 'tok' } }, 1), api);
    expect(api.handle).toHaveBeenCalledWith({ reminder_id: 'r', log_id: 'l', action: 'complete', action_token: 'tok' });
    await executeAction(act({ type: 'snooze', reminderId: 'r', logId: 'l', data: { action_token: 'tok' } }, 2), api);
    expect(api.handle).toHaveBeenLastCalledWith({ reminder_id: 'r', log_id: 'l', action: 'snooze', action_token: 'tok' });
  });
});

describe('processQueue', () => {
  it('processes in order and removes successes', async () => {
    const storage = memoryQueueStorage([
      act({ type: 'delete', reminderId: 'r9' }, 3),
      act({ type: 'create', data: { title: 'A' } }, 1),
      act({ type: 'update', reminderId: 'r2', data: {} }, 2),
      act({ type: 'complete', reminderId: 'r3', logId: 'l3' }, 4),
      act({ type: 'snooze', reminderId: 'r4', logId: 'l4' }, 5),
    ]);
    const { api, calls } = fakeApi();
    const r = await processQueue({ storage, api });
    expect(calls).toEqual(['create:A', 'update:r2', 'delete:r9', 'complete:r3:l3', 'snooze:r4:l4']);
    expect(r.succeeded).toBe(5);
    expect(storage.items).toHaveLength(0);
  });

  it('increments retryCount on failure and keeps the action', async () => {
    const storage = memoryQueueStorage([act({ type: 'update', reminderId: 'r1', data: {} }, 1)]);
    const { api } = fakeApi({ update: vi.fn().mockRejectedValue(new Error('boom')) });
    const r = await processQueue({ storage, api });
    expect(r.failed).toBe(1);
    expect(r.remaining).toBe(1);
    expect(storage.items[0]?.retryCount).toBe(1);
  });

  it('drops the action at the 5th failure and notifies when permission is granted', async () => {
    const storage = memoryQueueStorage([act({ type: 'update', reminderId: 'r1', data: {} }, 1)]);
    const { api } = fakeApi({ update: vi.fn().mockRejectedValue(new Error('boom')) });
    const show = vi.fn();
    const notifier = { permission: () => 'granted' as const, showDropped: show };
    for (let i = 1; i <= 4; i++) {
      await processQueue({ storage, api, notifier });
      expect(storage.items[0]?.retryCount).toBe(i);
    }
    expect(show).not.toHaveBeenCalled();
    const r = await processQueue({ storage, api, notifier });
    expect(storage.items).toHaveLength(0);
    expect(r.dropped).toHaveLength(1);
    expect(show).toHaveBeenCalledWith(expect.objectContaining({ type: 'update', reminderId: 'r1', retryCount: 5 }), expect.objectContaining({ message: 'boom' }));
  });

  it('does not notify without permission', async () => {
    const storage = memoryQueueStorage([act({ type: 'delete', reminderId: 'r1', retryCount: 4 }, 1)]);
    const { api } = fakeApi({ remove: vi.fn().mockRejectedValue(new Error('x')) });
    const show = vi.fn();
    await processQueue({ storage, api, notifier: { permission: () => 'default', showDropped: show } });
    expect(storage.items).toHaveLength(0);
    expect(show).not.toHaveBeenCalled();
  });

  it('treats missing ids and unknown types as failures', async () => {
    const storage = memoryQueueStorage([
      act({ type: 'complete', reminderId: 'r1' }, 1),
      { type: 'bogus' as never, timestamp: 2, retryCount: 0 },
    ]);
    const { api } = fakeApi();
    const r = await processQueue({ storage, api });
    expect(r.failed).toBe(2);
    expect(String(r.errors[0]?.error)).toContain('Missing reminderId or logId');
    expect(String(r.errors[1]?.error)).toContain('Unknown action type');
    expect(storage.items.map((a) => a.retryCount)).toEqual([1, 1]);
  });

  it('keeps per-reminder order: a failed action holds back later ones for the same reminder', async () => {
    const storage = memoryQueueStorage([
      act({ type: 'update', reminderId: 'r1', data: { n: 1 } }, 1),
      act({ type: 'update', reminderId: 'r2', data: {} }, 2),
      act({ type: 'delete', reminderId: 'r1' }, 3),
    ]);
    const update = vi.fn(async (id: string) => {
      if (id === 'r1') throw new Error('nope');
    });
    const { api } = fakeApi({ update });
    const remove = api.remove as ReturnType<typeof vi.fn>;
    const r = await processQueue({ storage, api });
    expect(update).toHaveBeenCalledTimes(2);
    expect(remove).not.toHaveBeenCalled();
    expect(r.remaining).toBe(2);
    expect(storage.items.map((a) => [a.type, a.retryCount])).toEqual([
      ['update', 1],
      ['delete', 0],
    ]);
  });

  it('maps a temp id to the server id for later actions', async () => {
    const storage = memoryQueueStorage([
      act({ type: 'create', reminderId: 'temp-1', data: { title: 'T' } }, 1),
      act({ type: 'update', reminderId: 'temp-1', data: {} }, 2),
    ]);
    const { api, calls } = fakeApi();
    const r = await processQueue({ storage, api });
    expect(calls).toEqual(['create:T', 'update:srv-1']);
    expect(r.idMap).toEqual({ 'temp-1': 'srv-1' });
  });
});

/**
 * The real API client over a server whose answers the test gives (`METHOD /path` -> status and
 * body): a 404 rejects with exactly what the app's queue meets, the client's ApiError.
 */
function server(routes: Record<string, [number, unknown]>) {
  const calls: string[] = [];
  const client = createApiClient({
    log: () => {},
    fetch: async (input, init) => {
      const key = `${init?.method ?? 'GET'} ${String(input).split('?')[0]}`;
      calls.push(key);
      const [status, body] = routes[key] ?? [500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'no route' } }];
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      return new Response(text, { status, headers: { 'Content-Type': typeof body === 'string' ? 'text/html' : 'application/json' } });
    },
  });
  const api: SyncApi = {
    create: (d) => client.reminders.create(d as never),
    update: (id, d) => client.reminders.update(id, d as never),
    remove: (id) => client.reminders.remove(id),
    handle: (input) => client.reminders.handle(input),
  };
  return { api, calls };
}

const NOT_FOUND: [number, unknown] = [404, { success: false, error: { code: 'NOT_FOUND', message: 'Reminder not found' } }];
const HANDLE = 'POST /api/reminders';
const answered = (r: Record<string, unknown>): [number, unknown] => [200, { success: true, data: { id: 'r1', title: 'Milk', status: 'pending', is_archived: false, ...r } }];

describe('processQueue: someone else deleted the reminder meanwhile (404 NOT_FOUND)', () => {
  const notifier = () => ({ permission: () => 'granted' as const, showDropped: vi.fn() });

  for (const type of ['update', 'complete', 'snooze'] as const) {
    it(`${type}: a "deleted" conflict, resolved at once: removed, not retried, no "Sync error"`, async () => {
      const storage = memoryQueueStorage([act({ type, reminderId: 'r1', logId: 'l1', data: { title: 'Milk' } }, 1)]);
      const { api, calls } = server({ 'PUT /api/reminders/r1': NOT_FOUND, [HANDLE]: NOT_FOUND });
      const n = notifier();
      const r = await processQueue({ storage, api, notifier: n });
      expect(calls).toHaveLength(1);
      expect(r.conflicts).toEqual([{ action: expect.objectContaining({ type, reminderId: 'r1' }), kind: 'deleted' }]);
      expect(r).toMatchObject({ failed: 0, remaining: 0, dropped: [], errors: [] });
      expect(storage.items).toEqual([]);
      expect(n.showDropped).not.toHaveBeenCalled();
    });
  }

  it('names the conflict by the title known before any request went out', async () => {
    const storage = memoryQueueStorage([act({ type: 'complete', reminderId: 'r1', logId: 'l1' }, 1)]);
    const { api, calls } = server({ [HANDLE]: NOT_FOUND });
    const titles = vi.fn(async (actions: readonly PendingAction[]) => {
      expect(calls).toEqual([]);
      expect(actions.map((x) => x.reminderId)).toEqual(['r1']);
      return new Map([['r1', 'Milk']]);
    });
    const r = await processQueue({ storage, api, titles });
    expect(r.conflicts.map((c) => [c.kind, c.title])).toEqual([['deleted', 'Milk']]);
  });

  it('delete: done, since it is gone either way (no conflict, no failure)', async () => {
    const storage = memoryQueueStorage([act({ type: 'delete', reminderId: 'r1' }, 1)]);
    const { api } = server({ 'DELETE /api/reminders/r1': NOT_FOUND });
    const r = await processQueue({ storage, api });
    expect(r).toMatchObject({ succeeded: 1, failed: 0, remaining: 0, conflicts: [] });
    expect(storage.items).toEqual([]);
  });

  it('later actions on the same reminder resolve the same way without asking the server again', async () => {
    const storage = memoryQueueStorage([
      act({ type: 'update', reminderId: 'r1', data: { title: 'Milk' } }, 1),
      act({ type: 'complete', reminderId: 'r1', logId: 'l1' }, 2),
      act({ type: 'delete', reminderId: 'r1' }, 3),
      act({ type: 'update', reminderId: 'r2', data: {} }, 4),
    ]);
    const { api, calls } = server({ 'PUT /api/reminders/r1': NOT_FOUND, 'PUT /api/reminders/r2': answered({ id: 'r2' }) });
    const r = await processQueue({ storage, api });
    expect(calls).toEqual(['PUT /api/reminders/r1', 'PUT /api/reminders/r2']);
    expect(r.conflicts.map((c) => [c.action.type, c.kind])).toEqual([
      ['update', 'deleted'],
      ['complete', 'deleted'],
    ]);
    expect(r).toMatchObject({ succeeded: 2, failed: 0, remaining: 0 });
    expect(storage.items).toEqual([]);
  });

  it('a 404 without the API\'s envelope (a proxy\'s page) is an ordinary failure, retried', async () => {
    const storage = memoryQueueStorage([act({ type: 'update', reminderId: 'r1', data: {} }, 1)]);
    const { api } = server({ 'PUT /api/reminders/r1': [404, '<html>Not Found</html>'] });
    const r = await processQueue({ storage, api });
    expect(r).toMatchObject({ failed: 1, remaining: 1, conflicts: [] });
    expect(storage.items[0]?.retryCount).toBe(1);
  });

  it('a create answered 404 is an ordinary failure (there is no reminder to be gone yet)', async () => {
    const storage = memoryQueueStorage([act({ type: 'create', reminderId: 'temp-1', data: { title: 'Milk' } }, 1)]);
    const { api } = server({ 'POST /api/reminders': NOT_FOUND });
    const r = await processQueue({ storage, api });
    expect(r).toMatchObject({ failed: 1, remaining: 1, conflicts: [] });
  });
});

describe('processQueue: someone else completed the reminder meanwhile', () => {
  it('update: applied as the server answered, a "completed" conflict named by the answer\'s title', async () => {
    const storage = memoryQueueStorage([act({ type: 'update', reminderId: 'r1', data: { description: 'two' } }, 1)]);
    const { api } = server({ 'PUT /api/reminders/r1': answered({ status: 'completed', is_archived: true }) });
    const r = await processQueue({ storage, api });
    expect(r.conflicts).toEqual([{ action: expect.objectContaining({ type: 'update', reminderId: 'r1' }), kind: 'completed', title: 'Milk' }]);
    expect(r).toMatchObject({ succeeded: 1, failed: 0, remaining: 0 });
    expect(storage.items).toEqual([]);
  });

  it("the answer's own title names it over one known before", async () => {
    const storage = memoryQueueStorage([act({ type: 'update', reminderId: 'r1', data: { title: 'Oat milk' } }, 1)]);
    const { api } = server({ 'PUT /api/reminders/r1': answered({ title: 'Oat milk!', status: 'completed' }) });
    const r = await processQueue({ storage, api, titles: async () => new Map([['r1', 'Milk']]) });
    expect(r.conflicts.map((c) => [c.kind, c.title])).toEqual([['completed', 'Oat milk!']]);
  });

  it('snooze: an archived answer counts as completed', async () => {
    const storage = memoryQueueStorage([act({ type: 'snooze', reminderId: 'r1', logId: 'l1', data: { snooze_minutes: 10 } }, 1)]);
    const { api } = server({ [HANDLE]: answered({ is_archived: true }) });
    const r = await processQueue({ storage, api });
    expect(r.conflicts.map((c) => c.kind)).toEqual(['completed']);
    expect(storage.items).toEqual([]);
  });

  it('no conflict for a pending answer, a complete, or a completion this run made itself', async () => {
    const storage = memoryQueueStorage([
      act({ type: 'update', reminderId: 'r2', data: {} }, 1),
      act({ type: 'complete', reminderId: 'r1', logId: 'l1' }, 2),
      act({ type: 'snooze', reminderId: 'r1', logId: 'l1' }, 3),
    ]);
    const { api } = server({ 'PUT /api/reminders/r2': answered({ id: 'r2' }), [HANDLE]: answered({ status: 'completed', is_archived: true }) });
    const r = await processQueue({ storage, api });
    expect(r).toMatchObject({ succeeded: 3, conflicts: [] });
  });
});

describe('SyncScheduler', () => {
  function harness(results: SyncResult[], online = true) {
    const timers: { fn: () => void; ms: number }[] = [];
    const run = vi.fn(async () => results.shift() ?? base);
    const s = new SyncScheduler({
      run,
      isOnline: () => online,
      setTimer: (fn, ms) => {
        timers.push({ fn, ms });
        return timers.length;
      },
      clearTimer: () => {},
    });
    return { s, run, timers };
  }
  const base: SyncResult = emptySyncResult();
  const failing: SyncResult = { ...base, failed: 1, remaining: 1 };

  it('runs 100 ms after an enqueue when online', () => {
    const { s, timers } = harness([]);
    s.nudge();
    expect(timers[0]?.ms).toBe(100);
  });
  it('does nothing offline', async () => {
    const { s, timers, run } = harness([], false);
    s.nudge();
    await s.runNow();
    expect(timers).toHaveLength(0);
    expect(run).not.toHaveBeenCalled();
  });
  it('backs off 1 s, 2 s, 4 s… after failed runs, then returns to the 5-minute period', async () => {
    const { s, timers } = harness([failing, failing, failing, base]);
    for (let i = 0; i < 4; i++) await s.runNow();
    expect(timers.map((t) => t.ms)).toEqual([1000, 2000, 4000, 300000]);
    expect(s.consecutiveFailures).toBe(0);
  });
});
