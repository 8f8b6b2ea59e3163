/**
 * Offline, the screens queue what they can (product spec section 4 "Sync", "Pending action
 * types"): an edit or a new reminder saved from the dialog, and Complete or Snooze from a
 * reminder's details, land in the encrypted pending-action queue (fake-indexeddb here) instead
 * of going to the server, show at once, and go to the server, in order, once back online.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter } from '../../lib/router';
import { SWRConfig } from 'swr';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '../../components/toast';
import { initI18n } from '../../i18n';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import { enqueue, pendingActions, startOfflineSync, stopOfflineSync } from '../../lib/offline/offlineSync';
import type { DeliveryLog, Reminder, User } from '../../lib/types';
import { mockFetch, ok, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { ReminderDetails } from './details/ReminderDetails';

const AT = '2030-01-02T00:00:05Z';

function reminder(id: string, title: string, userId: string): Reminder {
  return {
    id, user_id: userId, title, send_at: AT, scheduled_at: AT, timezone: 'Asia/Tokyo', recurrence: { kind: 'none' }, alerts: [{ before_minutes: 0 }],
    overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: 'list-1', assignees: [], rotate: false, break_through: false, created_by: 'u1', created_at: AT, updated_at: AT,
  };
}

let online = true;
/** The connection drops (or comes back): navigator.onLine and the window's event, as a browser does. */
function setOnline(value: boolean) {
  online = value;
  act(() => void window.dispatchEvent(new Event(value ? 'online' : 'offline')));
}

/** Each test its own account, so its queue starts empty. */
let user: User;

beforeAll(preloadApp, 120_000);
beforeEach(async () => {
  clearToasts();
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  user = { id: `u-offline-${Math.random()}`, email: 'taro@example.com', is_active: true, created_at: AT, updated_at: AT };
  resetAuthForTests({ user, status: 'signedIn' });
  await startOfflineSync(user.id);
});
afterEach(() => stopOfflineSync());

const toasts = () => getToasts().map((t) => t.message);
/** What the server was sent to change (not reads, not the health probe). */
const writes = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter(([, init]) => ['POST', 'PUT', 'DELETE'].includes(init?.method ?? 'GET')).map(([url, init]) => `${init!.method} ${String(url)}`);

describe('the reminders page offline', () => {
  async function openPage(lang: Lang, routes: Parameters<typeof mockFetch>[0] = {}) {
    const list = [reminder('a', 'Water the plants', user.id), reminder('b', 'Call the bank', user.id)];
    const fetch = mockFetch({
      'GET /api/reminders': () => ok(list),
      'POST /api/reminders/preview': () => ok({ occurrences: [] }),
      ...routes,
    });
    renderApp(lang === 'en' ? '/en/reminders' : '/reminders');
    await screen.findByRole('heading', { level: 1, name: tr(lang, 'reminders:title') });
    await screen.findByRole('heading', { level: 2, name: 'Water the plants' });
    return fetch;
  }

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: an edit saved offline is queued (not sent), shows at once, and is sent once back online`, async () => {
      const sent: unknown[] = [];
      const fetch = await openPage(lang, {
        'PUT /api/reminders/a': (_u, init) => {
          sent.push(JSON.parse(init.body as string));
          return ok(reminder('a', 'Water the garden', user.id));
        },
      });
      setOnline(false);
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'reminders:editNamed', { title: 'Water the plants' }) }));
      const dialog = await screen.findByRole('dialog', { name: tr(lang, 'reminders:dialog.editTitle') });
      fireEvent.change(within(dialog).getByLabelText(tr(lang, 'reminders:fields.title')), { target: { value: 'Water the garden' } });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'reminders:dialog.save') }));

      await waitFor(() => expect(toasts()).toContain(tr(lang, 'reminders:toast.queued')));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(screen.getByRole('heading', { level: 2, name: 'Water the garden' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { level: 2, name: 'Water the plants' })).toBeNull();
      expect(await pendingActions()).toEqual([
        expect.objectContaining({ type: 'update', reminderId: 'a', data: { title: 'Water the garden' }, retryCount: 0 }),
      ]);
      expect(writes(fetch)).toEqual([]);
      // the edited reminder says its change waits, as a new one does; the other one does not
      const edited = screen.getByRole('heading', { level: 2, name: 'Water the garden' }).closest('li')!;
      await waitFor(() => expect(within(edited).getByText(tr(lang, 'reminders:pendingSync'))).toBeInTheDocument());
      const other = screen.getByRole('heading', { level: 2, name: 'Call the bank' }).closest('li')!;
      expect(within(other).queryByText(tr(lang, 'reminders:pendingSync'))).toBeNull();

      setOnline(true);
      await waitFor(() => expect(sent).toEqual([{ title: 'Water the garden' }]));
      await waitFor(async () => expect(await pendingActions()).toEqual([]));
      await waitFor(() => expect(screen.queryByText(tr(lang, 'reminders:pendingSync'))).toBeNull());
    });
  }

  it('ja: the dashboard names the reminder whose change waits in the queue', async () => {
    mockFetch({ 'GET /api/reminders': () => ok([reminder('a', 'Water the plants', user.id), reminder('b', 'Call the bank', user.id)]) });
    setOnline(false);
    await enqueue({ type: 'update', reminderId: 'b', data: { title: 'Call the bank' } });
    renderApp('/');
    const item = (await screen.findByRole('heading', { level: 3, name: 'Call the bank' })).closest('li')!;
    await waitFor(() => expect(within(item).getByText(tr('ja', 'reminders:pendingSync'))).toBeInTheDocument());
    expect(screen.getAllByText(tr('ja', 'reminders:pendingSync'))).toHaveLength(1);
  });

  it("en: Complete from a row's details offline: that row says Waiting to sync until it has synced", async () => {
    const LOG = { id: 'l1', occurrence_at: '2029-12-31T00:00:00Z', kind: 'occurrence', status: 'shown', devices: [] };
    const fetch = await openPage('en', {
      'GET /api/reminders/a/logs': () => ok([LOG]),
      'GET /api/reminders/a/occurrences': () => ok({ occurrences: [AT] }),
      'POST /api/reminders': () => ok(reminder('a', 'Water the plants', user.id)),
    });
    const row = screen.getByRole('heading', { level: 2, name: 'Water the plants' }).closest('li')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Details' }));
    const complete = await within(row).findByRole('button', { name: 'Complete' });
    setOnline(false);
    fireEvent.click(complete);
    await waitFor(() => expect(toasts()).toContain('Saved offline. It will sync when you are back online.'));
    await waitFor(() => expect(within(row).getByText('Waiting to sync')).toBeInTheDocument());
    expect(screen.getAllByText('Waiting to sync')).toHaveLength(1);
    expect(writes(fetch)).toEqual([]);

    setOnline(true);
    await waitFor(async () => expect(await pendingActions()).toEqual([]));
    await waitFor(() => expect(within(row).queryByText('Waiting to sync')).toBeNull());
  });

  it('en: a new reminder saved offline is queued as a create under a temp- id and listed as waiting', async () => {
    const fetch = await openPage('en');
    setOnline(false);
    fireEvent.click(within(screen.getByRole('main')).getAllByRole('button', { name: 'Create reminder' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Create reminder' });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Stretch' } });
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '2030-01-03' } });
    fireEvent.change(within(dialog).getByLabelText('Time (to the second)'), { target: { value: '09:00:05' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(toasts()).toContain('Saved offline. It will sync when you are back online.'));
    const row = (await screen.findByRole('heading', { level: 2, name: 'Stretch' })).closest('li')!;
    expect(within(row).getByText('Waiting to sync')).toBeInTheDocument();
    const [queued, ...rest] = await pendingActions();
    expect(rest).toEqual([]);
    expect(queued).toMatchObject({ type: 'create', retryCount: 0, data: { title: 'Stretch', send_at: '2030-01-03T09:00:05+00:00' } });
    expect(queued!.reminderId).toMatch(/^temp-\d+/);
    expect(writes(fetch)).toEqual([]);
  });
});

describe("a reminder's details offline", () => {
  const LAST: DeliveryLog = { id: 'l2', occurrence_at: '2029-12-31T00:00:00Z', kind: 'occurrence', status: 'shown', devices: [] } as unknown as DeliveryLog;

  async function openDetails(lang: Lang) {
    const i18n = initI18n(lang);
    await i18n.changeLanguage(lang);
    await i18n.loadNamespaces(['reminders', 'errors']);
    const fetch = mockFetch({
      'GET /api/reminders/r1/occurrences': () => ok({ occurrences: ['2030-01-02T00:00:05Z'] }),
      'GET /api/reminders/r1/logs': () => ok([LAST]),
      'POST /api/reminders': () => ok(reminder('r1', 'Medicine', user.id)),
    });
    render(
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <MemoryRouter>
          <Suspense fallback={null}>
            <ReminderDetails
              reminder={reminder('r1', 'Medicine', user.id)}
              snoozeMinutes={10}
              snoozeClock={{ timezone: 'Asia/Tokyo', morningTime: '08:00', eveningTime: '18:00' }}
            />
          </Suspense>
        </MemoryRouter>
      </SWRConfig>,
    );
    await screen.findByRole('button', { name: tr(lang, 'reminders:details.complete') });
    return fetch;
  }

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: Complete and Snooze are queued with the reminder and its latest delivery, then sent in order`, async () => {
      const fetch = await openDetails(lang);
      setOnline(false);
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'reminders:details.complete') }));
      await waitFor(() => expect(toasts()).toContain(tr(lang, 'reminders:toast.queued')));
      clearToasts();
      fireEvent.change(screen.getByRole('combobox', { name: tr(lang, 'reminders:details.snoozeFor') }), { target: { value: '30' } });
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'reminders:details.snooze', { n: 30 }) }));
      await waitFor(() => expect(toasts()).toContain(tr(lang, 'reminders:toast.queued')));

      expect(await pendingActions()).toEqual([
        expect.objectContaining({ type: 'complete', reminderId: 'r1', logId: 'l2', retryCount: 0 }),
        expect.objectContaining({ type: 'snooze', reminderId: 'r1', logId: 'l2', data: { snooze_minutes: 30 }, retryCount: 0 }),
      ]);
      expect(writes(fetch)).toEqual([]);

      // back online: the queue goes out in order, as the notification's own actions would
      setOnline(true);
      await waitFor(async () => expect(await pendingActions()).toEqual([]));
      const bodies = fetch.mock.calls.filter(([, init]) => init?.method === 'POST').map(([, init]) => JSON.parse(String(init!.body)) as unknown);
      expect(bodies).toEqual([
        { reminder_id: 'r1', log_id: 'l2', action: 'complete' },
        { reminder_id: 'r1', log_id: 'l2', action: 'snooze', snooze_minutes: 30 },
      ]);
    });
  }
});
