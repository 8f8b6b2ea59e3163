/**
 * Deep links act only with their token (decisions.md): `/reminders?reminder=&log=&do=&t=` from a
 * declarative notification's button performs the action with `t` as `action_token`; without
 * `t` the page asks first (Confirm performs it with the session, Cancel does nothing). Either
 * way `do`, `log` and `t` leave the address.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { Reminder, User } from '../../lib/types';
import { mockFetch, ok, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';

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
