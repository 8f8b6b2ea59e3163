/**
 * Deep links act only with their token (decisions.md): `/reminders?reminder=&log=&do=&t=` from a
 * declarative notification's button performs the action with `t` as `action_token`; without
 * `t` the page asks first (Confirm performs it with the session, Cancel does nothing). Either
 * way `do`, `log` and `t` leave the address. Offline, the action is queued (as the details'
 * Complete and Snooze are) and sent once back online.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '../../../components/toast';
import { getAuthState, resetAuthForTests } from '../../../lib/authStore';
import { pendingActions, startOfflineSync, stopOfflineSync } from '../../../lib/offline/offlineSync';
import type { Reminder, User } from '../../../lib/types';
import { mockFetch, ok, preloadApp, renderApp } from '../../../test/renderApp';
import { tr } from '../../../test/texts';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const AT = '2030-01-01T00:00:00Z';
const REMINDER: Reminder = {
  id: 'r1', user_id: 'u1', title: 'Take medicine', send_at: AT, scheduled_at: AT, timezone: 'Asia/Tokyo',
  recurrence: { kind: 'none' }, alerts: [{ before_minutes: 0 }], overdue: true, is_active: true, is_archived: false, status: 'pending', created_at: AT, updated_at: AT,
} as Reminder;
const loc = () => screen.getByTestId('location').textContent;

function server() {
  const handled: Record<string, unknown>[] = [];
  mockFetch({
    'GET /api/reminders': () => ok([REMINDER]),
    'GET /api/reminders/r1/logs': () => ok([]),
    'GET /api/reminders/r1/occurrences': () => ok({ occurrences: [] }),
    'POST /api/reminders': (url, init) => {
      if (!url.includes('action=handle')) return ok(null, 400);
      handled.push(JSON.parse(init.body as string) as Record<string, unknown>);
      return ok(REMINDER);
    },
  });
  return handled;
}

beforeAll(async () => {
  // jsdom has no layout: the page scrolls the opened reminder into view.
  Element.prototype.scrollIntoView ??= () => {};
  await preloadApp();
});
beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
});

describe('where the link came from', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: a notification's link says so; the fallback email's (from=email) says it came from the email`, async () => {
      server();
      const prefix = lang === 'en' ? '/en' : '';
      const first = renderApp(`${prefix}/reminders?reminder=r1`);
      expect(await screen.findByText(tr(lang, 'reminders:details.openedFromNotification'))).toBeInTheDocument();
      first.unmount();
      renderApp(`${prefix}/reminders?reminder=r1&from=email`);
      expect(await screen.findByText(tr(lang, 'reminders:details.openedFromEmail'))).toBeInTheDocument();
      expect(screen.queryByText(tr(lang, 'reminders:details.openedFromNotification'))).toBeNull();
    });
  }
});

describe('a notification button opened as a link', () => {
  it('with its token: performed once with action_token, and `do`, `log`, `t` leave the address', async () => {
    const handled = server();
    renderApp('/en/reminders?reminder=r1&log=l1&do=complete&t=tok-123');
    await waitFor(() => expect(handled).toEqual([{ reminder_id: 'r1', log_id: 'l1', action: 'complete', action_token: 'tok-123' }]));
    await waitFor(() => expect(loc()).toBe('/en/reminders?reminder=r1'));
    expect(await screen.findByText(tr('en', 'reminders:details.fromNotification.done'))).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    await new Promise((r) => setTimeout(r, 50));
    expect(handled).toHaveLength(1);
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: without a token nothing is done until Confirm, which acts with the session`, async () => {
      const handled = server();
      renderApp(`${lang === 'en' ? '/en' : ''}/reminders?reminder=r1&log=l1&do=snooze`);
      const dialog = await screen.findByRole('dialog', { name: tr(lang, 'reminders:details.fromNotification.ask.snooze') });
      await waitFor(() => expect(within(dialog).getByText('Take medicine')).toBeInTheDocument());
      expect(dialog).toHaveTextContent(tr(lang, 'reminders:details.fromNotification.ask.why'));
      expect(loc()).toBe(`${lang === 'en' ? '/en' : ''}/reminders?reminder=r1`);
      expect(handled).toEqual([]);
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'reminders:details.fromNotification.ask.confirm') }));
      await waitFor(() => expect(handled).toEqual([{ reminder_id: 'r1', log_id: 'l1', action: 'snooze' }]));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(await screen.findByText(tr(lang, 'reminders:details.fromNotification.done'))).toBeInTheDocument();
    });
  }

  it('without a token, Cancel does nothing', async () => {
    const handled = server();
    renderApp('/en/reminders?reminder=r1&log=l1&do=complete');
    const dialog = await screen.findByRole('dialog', { name: 'Complete this reminder?' });
    fireEvent.click(within(dialog).getByRole('button', { name: tr('en', 'reminders:dialog.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await new Promise((r) => setTimeout(r, 50));
    expect(handled).toEqual([]);
    expect(loc()).toBe('/en/reminders?reminder=r1');
  });
});

describe('a notification button opened as a link while offline', () => {
  let online = true;
  const setOnline = (value: boolean) => {
    online = value;
    act(() => void window.dispatchEvent(new Event(value ? 'online' : 'offline')));
  };
  beforeEach(async () => {
    online = false;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    // each test its own account, so its queue starts empty
    const user = { ...USER, id: `u-link-${Math.random()}` };
    resetAuthForTests({ user, status: 'signedIn' });
    await startOfflineSync(user.id);
  });
  afterEach(() => stopOfflineSync());
  const toasts = () => getToasts().map((t) => t.message);

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: with its token: queued with the token (nothing sent), said so, and sent with action_token once online`, async () => {
      const handled = server();
      renderApp(`${lang === 'en' ? '/en' : ''}/reminders?reminder=r1&log=l1&do=complete&t=tok-123`);
      await waitFor(() => expect(toasts()).toEqual([tr(lang, 'reminders:toast.queued')]));
      expect(await pendingActions()).toEqual([
        expect.objectContaining({ type: 'complete', reminderId: 'r1', logId: 'l1', data: { action_token: 'tok-123' }, retryCount: 0 }),
      ]);
      await waitFor(() => expect(loc()).toBe(`${lang === 'en' ? '/en' : ''}/reminders?reminder=r1`));
      expect(handled).toEqual([]);

      setOnline(true);
      await waitFor(() => expect(handled).toEqual([{ reminder_id: 'r1', log_id: 'l1', action: 'complete', action_token: 'tok-123' }]));
      await waitFor(async () => expect(await pendingActions()).toEqual([]));
    });
  }

  it('en: opened before the offline store is open (it opens after the first paint): queued once it is', async () => {
    const userId = getAuthState().user!.id;
    stopOfflineSync();
    const handled = server();
    renderApp('/en/reminders?reminder=r1&log=l1&do=complete&t=tok-9');
    await waitFor(() => expect(loc()).toBe('/en/reminders?reminder=r1'));
    await new Promise((r) => setTimeout(r, 100));
    expect(toasts()).toEqual([]);
    await startOfflineSync(userId);
    await waitFor(() => expect(toasts()).toEqual([tr('en', 'reminders:toast.queued')]));
    expect(await pendingActions()).toEqual([expect.objectContaining({ type: 'complete', reminderId: 'r1', logId: 'l1', data: { action_token: 'tok-9' } })]);
    expect(handled).toEqual([]);
  });

  it('en: without a token, Confirm queues it (to go with the session) and nothing is sent offline', async () => {
    const handled = server();
    renderApp('/en/reminders?reminder=r1&log=l1&do=snooze');
    const dialog = await screen.findByRole('dialog', { name: 'Snooze this reminder?' });
    fireEvent.click(within(dialog).getByRole('button', { name: tr('en', 'reminders:details.fromNotification.ask.confirm') }));
    await waitFor(() => expect(toasts()).toEqual([tr('en', 'reminders:toast.queued')]));
    const [queued, ...rest] = await pendingActions();
    expect(rest).toEqual([]);
    expect(queued).toMatchObject({ type: 'snooze', reminderId: 'r1', logId: 'l1' });
    expect(queued!.data).toBeUndefined();
    expect(handled).toEqual([]);
    setOnline(true);
    await waitFor(() => expect(handled).toEqual([{ reminder_id: 'r1', log_id: 'l1', action: 'snooze' }]));
  });
});
