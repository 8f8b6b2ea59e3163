/**
 * Snooze all: shown only while something is overdue (on the dashboard and the reminders page);
 * it posts snooze-all for the person's default snooze or a chosen length, reloads the reminders
 * and says how many it snoozed (one toast, plural-aware); offline it waits and says why.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '../../../components/toast';
import { resetAuthForTests } from '../../../lib/authStore';
import type { Lang } from '../../../lib/lang';
import type { Reminder, User } from '../../../lib/types';
import { json, mockFetch, ok, preloadApp, renderApp } from '../../../test/renderApp';
import { tr } from '../../../test/texts';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const PAST = '2025-06-01T00:00:00Z';
const LATER = '2030-01-01T00:00:00Z';
const SETTINGS = { timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 15, speak_titles: false, hide_notification_content: false, email_fallback_minutes: 5, morning_time: '08:00', evening_time: '18:00', quiet_hours: null, daily_brief: null };

function reminder(id: string, title: string, extra: Partial<Reminder> = {}): Reminder {
  return {
    id, user_id: 'u1', title, send_at: LATER, scheduled_at: LATER, timezone: 'Asia/Tokyo', recurrence: { kind: 'none' }, alerts: [{ before_minutes: 0 }],
    overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: 'list-1', assignees: [], rotate: false, break_through: false,
    created_by: 'u1', created_at: PAST, updated_at: PAST, ...extra,
  };
}
const overdue = (id: string, title: string) => reminder(id, title, { overdue: true, send_at: PAST, scheduled_at: PAST });

/** A server whose overdue reminders snooze-all snoozes (answering how many). */
function server(list: Reminder[], answer?: () => Response) {
  let current = list;
  const posts: unknown[] = [];
  let gets = 0;
  const fetch = mockFetch({
    'GET /api/settings': () => ok(SETTINGS),
    'GET /api/reminders': (url) => {
      if (!url.includes('status=archived')) gets++;
      return ok(url.includes('status=archived') ? [] : current);
    },
    'POST /api/reminders/snooze-all': (_u, init) => {
      posts.push(JSON.parse(String(init.body)));
      if (answer) return answer();
      const n = current.filter((r) => r.overdue).length;
      current = current.map((r) => (r.overdue ? { ...r, overdue: false, snoozed_until: LATER, scheduled_at: LATER } : r));
      return ok({ snoozed: n });
    },
  });
  return { fetch, posts, gets: () => gets };
}

const button = (lang: Lang) => screen.findByRole('button', { name: tr(lang, 'reminders:snoozeAll.button') });
const toasts = () => getToasts().map((t) => `${t.kind}: ${t.message}`);

beforeAll(preloadApp, 120_000);
beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
});

describe('Snooze all', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: on the reminders page with two overdue: posts the default snooze, reloads, says "2" and goes`, async () => {
      const s = server([overdue('a', 'Take medicine'), overdue('b', 'Call the bank'), reminder('c', 'Pay rent')]);
      renderApp(lang === 'ja' ? '/reminders' : '/en/reminders');
      const snooze = await button(lang);
      // the person's default (15 min) is chosen
      expect(screen.getByLabelText(tr(lang, 'reminders:snoozeAll.for'))).toHaveValue('15');
      const before = s.gets();
      fireEvent.click(snooze);
      await waitFor(() => expect(s.posts).toEqual([{ snooze_minutes: 15 }]));
      await waitFor(() => expect(toasts()).toEqual([`success: ${tr(lang, 'reminders:snoozeAll.done_other', { count: 2 })}`]));
      await waitFor(() => expect(s.gets()).toBeGreaterThan(before));
      await waitFor(() => expect(screen.queryByRole('button', { name: tr(lang, 'reminders:snoozeAll.button') })).toBeNull());
    });
  }

  it('en: on the dashboard, a chosen length is sent; one snoozed reads in the singular', async () => {
    const s = server([overdue('a', 'Take medicine'), reminder('c', 'Pay rent')]);
    renderApp('/en');
    const snooze = await button('en');
    fireEvent.change(screen.getByLabelText(tr('en', 'reminders:snoozeAll.for')), { target: { value: '60' } });
    fireEvent.click(snooze);
    await waitFor(() => expect(s.posts).toEqual([{ snooze_minutes: 60 }]));
    await waitFor(() => expect(toasts()).toEqual(['success: Snoozed 1 reminder.']));
  });

  it('ja: the menu offers 10, 30 and 60 min beside the default; nothing overdue: no button, on either page', async () => {
    server([overdue('a', 'Take medicine')]);
    const view = renderApp('/');
    await button('ja');
    const options = [...(screen.getByLabelText(tr('ja', 'reminders:snoozeAll.for')) as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(['10', '15', '30', '60']);
    view.unmount();

    const calm = [reminder('c', 'Pay rent'), reminder('d', 'Snoozed', { snoozed_until: LATER })];
    server(calm);
    const dashboard = renderApp('/');
    await screen.findByRole('heading', { level: 3, name: 'Pay rent' });
    expect(screen.queryByRole('button', { name: tr('ja', 'reminders:snoozeAll.button') })).toBeNull();
    dashboard.unmount();

    server(calm);
    renderApp('/reminders');
    await screen.findByRole('heading', { level: 2, name: 'Pay rent' });
    expect(screen.queryByRole('button', { name: tr('ja', 'reminders:snoozeAll.button') })).toBeNull();
  });

  it('ja: nothing left to snooze (another device did it) says so; a failure says it failed', async () => {
    server([overdue('a', 'Take medicine')], () => ok({ snoozed: 0 }));
    const view = renderApp('/reminders');
    fireEvent.click(await button('ja'));
    await waitFor(() => expect(toasts()).toEqual([`info: ${tr('ja', 'reminders:snoozeAll.none')}`]));
    view.unmount();

    clearToasts();
    server([overdue('a', 'Take medicine')], () => json(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } }));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderApp('/reminders');
    fireEvent.click(await button('ja'));
    await waitFor(() => expect(toasts()).toEqual([`error: ${tr('ja', 'reminders:snoozeAll.failed')}`]));
  });

  it('en: offline it is disabled and says it needs a connection', async () => {
    const s = server([overdue('a', 'Take medicine')]);
    renderApp('/en/reminders');
    const snooze = await button('en');
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    await waitFor(() => expect(snooze).toBeDisabled());
    expect(snooze).toHaveAccessibleDescription(`${tr('en', 'reminders:snoozeAll.hint')} ${tr('en', 'reminders:snoozeAll.offline')}`);
    fireEvent.click(snooze);
    expect(s.posts).toEqual([]);
  });
});
