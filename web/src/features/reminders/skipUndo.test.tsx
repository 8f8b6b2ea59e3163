/**
 * Skip next offers Undo in its toast: Undo PUTs the recurrence without the skipped date (only
 * that one; other skipped dates stay), says so, and the list shows it at once; a failed Undo
 * says so and leaves the skip; offline, Undo is queued like any edit and sent once back online.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import { formatDay } from '../../lib/format';
import type { Lang } from '../../lib/lang';
import { pendingActions, startOfflineSync, stopOfflineSync } from '../../lib/offline/offlineSync';
import type { Reminder, User } from '../../lib/types';
import { deviceZone } from '../../lib/zoneIds';
import { json, mockFetch, ok, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';

const AT = '2030-01-01T00:00:00Z';
const SKIPPED = '2030-01-01';

function daily(skip: string[]): Reminder {
  return {
    id: 'r1', user_id: 'u1', title: 'Stretch', send_at: AT, scheduled_at: AT, timezone: 'Asia/Tokyo',
    recurrence: { kind: 'daily', skip } as Reminder['recurrence'], alerts: [{ before_minutes: 0 }],
    overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: 'list-1', assignees: [], rotate: false, break_through: false, created_by: 'u1', created_at: AT, updated_at: AT,
  };
}

let online = true;
function setOnline(value: boolean) {
  online = value;
  act(() => void window.dispatchEvent(new Event(value ? 'online' : 'offline')));
}

let user: User;
beforeAll(preloadApp, 120_000);
beforeEach(async () => {
  clearToasts();
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  user = { id: `u-skip-${Math.random()}`, email: 'taro@example.com', is_active: true, created_at: AT, updated_at: AT };
  resetAuthForTests({ user, status: 'signedIn' });
  await startOfflineSync(user.id);
});
afterEach(() => stopOfflineSync());

/** A server that keeps the reminder: skip adds the next date, PUT replaces the recurrence. */
function server(put?: (body: Partial<Reminder>) => Response | Promise<Response>) {
  let current = daily(['2029-12-25']);
  const puts: unknown[] = [];
  const fetch = mockFetch({
    'GET /api/reminders': () => ok([current]),
    'GET /api/reminders/r1/logs': () => ok([]),
    'GET /api/reminders/r1/occurrences': () => ok({ occurrences: [AT] }),
    'POST /api/reminders/r1/skip': () => {
      current = daily([...(current.recurrence.skip ?? []), SKIPPED]);
      return ok(current);
    },
    'PUT /api/reminders/r1': (_u, init) => {
      const body = JSON.parse(String(init.body)) as Partial<Reminder>;
      puts.push(body);
      if (put) return put(body);
      current = { ...current, ...body } as Reminder;
      return ok(current);
    },
  });
  return { fetch, puts };
}

async function skipFromDetails(lang: Lang) {
  renderApp(lang === 'ja' ? '/reminders' : '/en/reminders');
  const row = (await screen.findByRole('heading', { level: 2, name: 'Stretch' })).closest('li')!;
  // find, not get: the title is the same in both languages, so it can show before the route's
  // language has taken over the page
  fireEvent.click(await within(row).findByRole('button', { name: tr(lang, 'reminders:details.show') }));
  fireEvent.click(await within(row).findByRole('button', { name: tr(lang, 'reminders:details.skipNext') }));
  const date = formatDay(SKIPPED, { lang, now: Date.now(), zone: deviceZone() });
  const toast = await screen.findByText(tr(lang, 'reminders:details.skippedToast', { date }));
  return { row, date, undo: within(toast.closest('.toast') as HTMLElement).getByRole('button', { name: tr(lang, 'reminders:details.undo') }) };
}

const messages = () => getToasts().map((t) => t.message);

describe('Skip next, then Undo', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: Undo puts back the recurrence without that date only, and says so`, async () => {
      const { puts } = server();
      const { row, date, undo } = await skipFromDetails(lang);
      expect(getToasts()[0]?.duration).toBe(10_000);
      fireEvent.click(undo);
      await waitFor(() => expect(messages()).toEqual([tr(lang, 'reminders:details.skipUndoneToast', { date })]));
      expect(puts).toEqual([{ recurrence: { kind: 'daily', skip: ['2029-12-25'] } }]);
      expect(screen.queryByRole('button', { name: tr(lang, 'reminders:details.undo') })).toBeNull();
      // the reminder as the list has it now: the earlier skipped date stays, the undone one is gone
      fireEvent.click(within(row).getByRole('button', { name: tr(lang, 'reminders:editNamed', { title: 'Stretch' }) }));
      const dialog = await screen.findByRole('dialog');
      const earlier = formatDay('2029-12-25', { lang, now: Date.now(), zone: deviceZone() });
      expect(await within(dialog).findByRole('button', { name: tr(lang, 'reminders:fields.unskip', { date: earlier }) })).toBeInTheDocument();
      expect(within(dialog).queryByRole('button', { name: tr(lang, 'reminders:fields.unskip', { date }) })).toBeNull();
    });
  }

  it('en: a failed Undo says so, and the skip stays', async () => {
    const { puts } = server(() => json(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } }));
    const { row, date, undo } = await skipFromDetails('en');
    fireEvent.click(undo);
    await waitFor(() => expect(messages()).toEqual([tr('en', 'reminders:details.undoFailed', { date })]));
    expect(getToasts()[0]?.kind).toBe('error');
    expect(puts).toHaveLength(1);
    fireEvent.click(within(row).getByRole('button', { name: tr('en', 'reminders:editNamed', { title: 'Stretch' }) }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('button', { name: tr('en', 'reminders:fields.unskip', { date }) })).toBeInTheDocument();
  });

  it('en: Undo offline is queued as an edit of the recurrence and sent once back online', async () => {
    const { puts } = server();
    const { row, undo } = await skipFromDetails('en');
    setOnline(false);
    fireEvent.click(undo);
    await waitFor(() => expect(messages()).toEqual([tr('en', 'reminders:toast.queued')]));
    expect(await pendingActions()).toEqual([
      expect.objectContaining({ type: 'update', reminderId: 'r1', data: { recurrence: { kind: 'daily', skip: ['2029-12-25'] } } }),
    ]);
    expect(puts).toEqual([]);
    await waitFor(() => expect(within(row).getByText(tr('en', 'reminders:pendingSync'))).toBeInTheDocument());
    setOnline(true);
    await waitFor(() => expect(puts).toEqual([{ recurrence: { kind: 'daily', skip: ['2029-12-25'] } }]));
    await waitFor(async () => expect(await pendingActions()).toEqual([]));
  });
});
