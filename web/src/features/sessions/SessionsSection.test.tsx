/**
 * Settings → Sessions, in the whole app at /settings and /en/settings: the list (label or
 * "Unknown device", signed in and last used in the app's date format, this device marked and
 * first), ending another session after a confirmation, and "Sign out everywhere".
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../components/toast';
import { getAuthState, resetAuthForTests } from '../../lib/authStore';
import { formatWhen } from '../../lib/format';
import type { Lang } from '../../lib/lang';
import type { AuthSession, User } from '../../lib/types';
import { json, mockFetch, ok, preloadApp, renderApp, type Handler } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { orderSessions } from './SessionsSection';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const SETTINGS = { timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 10, speak_titles: false, hide_notification_content: false, email_fallback_minutes: 5 };
const SESSIONS: AuthSession[] = [
  { id: 's-old', label: 'Firefox on Windows', created_at: '2026-01-10T01:00:00Z', last_used_at: '2026-02-01T03:00:00Z', current: false },
  { id: 's-here', label: 'Chrome on Android', created_at: '2026-02-03T00:00:00Z', last_used_at: '2026-02-20T00:00:00Z', current: true },
  { id: 's-blank', label: '', created_at: '2026-02-05T00:00:00Z', last_used_at: '2026-02-10T00:00:00Z', current: false },
];
const loc = () => screen.getByTestId('location').textContent;

function server(extra: Record<string, Handler> = {}) {
  return mockFetch({
    'GET /api/settings': () => ok(SETTINGS),
    'GET /api/notifications/subscriptions': () => ok([]),
    'GET /api/auth/sessions': () => ok(SESSIONS),
    ...extra,
  });
}

/** The sessions section's rows as text, once the list is there. */
async function rows(lang: Lang) {
  const section = await screen.findByRole('region', { name: tr(lang, 'sessions:title') });
  await waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(3));
  return { section, items: within(section).getAllByRole('listitem') };
}

beforeAll(() => preloadApp());
beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
});
afterEach(() => vi.restoreAllMocks());

describe('Settings → Sessions', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: lists every session, this device first and marked, the label or "unknown", signed in and last used`, async () => {
      server();
      renderApp(lang === 'ja' ? '/settings' : '/en/settings');
      const { items } = await rows(lang);
      const when = (iso: string) => formatWhen(iso, { lang, userZone: 'Asia/Tokyo', zone: 'Asia/Tokyo', now: Date.now() });
      expect(items[0]).toHaveTextContent('Chrome on Android');
      expect(within(items[0]!).getByText(tr(lang, 'sessions:thisDevice'))).toBeInTheDocument();
      expect(items[0]).toHaveTextContent(tr(lang, 'sessions:created', { when: when('2026-02-03T00:00:00Z') }));
      expect(items[0]).toHaveTextContent(tr(lang, 'sessions:lastUsed', { when: when('2026-02-20T00:00:00Z') }));
      // the one we are using cannot be ended from the list (the header's sign-out does that)
      expect(within(items[0]!).queryByRole('button')).toBeNull();
      expect(items[1]).toHaveTextContent(tr(lang, 'sessions:unknown'));
      expect(items[2]).toHaveTextContent('Firefox on Windows');
      expect(within(items[2]!).queryByText(tr(lang, 'sessions:thisDevice'))).toBeNull();
      expect(within(items[2]!).getByRole('button', { name: tr(lang, 'sessions:endNamed', { name: 'Firefox on Windows' }) })).toBeInTheDocument();
    });
  }

  it('ends another session after a confirmation and removes it from the list', async () => {
    let live = SESSIONS;
    const fetch = server({
      'GET /api/auth/sessions': () => ok(live),
      'DELETE /api/auth/sessions/s-old': () => {
        live = live.filter((s) => s.id !== 's-old');
        return json(204, null);
      },
    });
    renderApp('/en/settings');
    const { section } = await rows('en');
    fireEvent.click(within(section).getByRole('button', { name: 'Sign out Firefox on Windows' }));
    const dialog = await screen.findByRole('dialog', { name: tr('en', 'sessions:endConfirm.title') });
    expect(dialog).toHaveTextContent('Firefox on Windows');
    // nothing is sent before the confirmation
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: tr('en', 'sessions:endConfirm.confirm') }));
    await waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(2));
    expect(within(section).queryByText('Firefox on Windows')).toBeNull();
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'DELETE').map(([url]) => url)).toEqual(['/api/auth/sessions/s-old']);
    expect(await screen.findByText(tr('en', 'sessions:ended', { name: 'Firefox on Windows' }))).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('cancel ends nothing', async () => {
    const fetch = server();
    renderApp('/settings');
    const { section } = await rows('ja');
    fireEvent.click(within(section).getByRole('button', { name: tr('ja', 'sessions:endNamed', { name: tr('ja', 'sessions:unknown') }) }));
    const dialog = await screen.findByRole('dialog', { name: tr('ja', 'sessions:endConfirm.title') });
    fireEvent.click(within(dialog).getByRole('button', { name: tr('ja', 'sessions:cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    expect(within(section).getAllByRole('listitem')).toHaveLength(3);
  });

  it('a session that is already over (404) leaves the list too; another failure keeps it and says so', async () => {
    // s-old ended by itself meanwhile (expired): the server no longer lists it either.
    let live = SESSIONS;
    server({
      'GET /api/auth/sessions': () => ok(live),
      'DELETE /api/auth/sessions/s-old': () => {
        live = live.filter((s) => s.id !== 's-old');
        return json(404, { success: false, error: { code: 'NOT_FOUND', message: 'gone' } });
      },
      'DELETE /api/auth/sessions/s-blank': () => json(503, { success: false, error: { code: 'UNAVAILABLE', message: 'later' } }),
    });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderApp('/en/settings');
    const { section } = await rows('en');
    fireEvent.click(within(section).getByRole('button', { name: 'Sign out Unknown device' }));
    fireEvent.click(await screen.findByRole('button', { name: tr('en', 'sessions:endConfirm.confirm') }));
    expect(await screen.findByText(tr('en', 'sessions:endFailed'))).toBeInTheDocument();
    expect(within(section).getAllByRole('listitem')).toHaveLength(3);
    fireEvent.click(within(section).getByRole('button', { name: 'Sign out Firefox on Windows' }));
    fireEvent.click(await screen.findByRole('button', { name: tr('en', 'sessions:endConfirm.confirm') }));
    await waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(2));
    expect(within(section).queryByText('Firefox on Windows')).toBeNull();
    expect(await screen.findByText(tr('en', 'sessions:ended', { name: 'Firefox on Windows' }))).toBeInTheDocument();
  });

  it('"Sign out everywhere" asks, sends logout?all=true, signs out here and goes home', async () => {
    const fetch = server({ 'POST /api/auth/logout': () => json(204, null) });
    renderApp('/settings');
    const { section } = await rows('ja');
    fireEvent.click(within(section).getByRole('button', { name: tr('ja', 'sessions:signOutEverywhere') }));
    const dialog = await screen.findByRole('dialog', { name: tr('ja', 'sessions:everywhereConfirm.title') });
    expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/api/auth/logout'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: tr('ja', 'sessions:everywhereConfirm.confirm') }));
    await waitFor(() => expect(loc()).toBe('/'));
    expect(fetch.mock.calls.filter(([url]) => String(url).startsWith('/api/auth/logout')).map(([url]) => url)).toEqual(['/api/auth/logout?all=true']);
    expect(getAuthState().status).toBe('signedOut');
    expect(localStorage.getItem('auth-storage')).toBeNull();
    expect(await screen.findByText(tr('ja', 'sessions:signedOutEverywhere'))).toBeInTheDocument();
  });

  it('"Sign out everywhere" that the server could not take stays signed in and says so', async () => {
    server({ 'POST /api/auth/logout': () => json(503, { success: false, error: { code: 'UNAVAILABLE', message: 'later' } }) });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderApp('/en/settings');
    const { section } = await rows('en');
    fireEvent.click(within(section).getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: tr('en', 'sessions:everywhereConfirm.title') });
    fireEvent.click(within(dialog).getByRole('button', { name: tr('en', 'sessions:everywhereConfirm.confirm') }));
    expect(await screen.findByText(tr('en', 'sessions:everywhereFailed'))).toBeInTheDocument();
    expect(getAuthState().status).toBe('signedIn');
    expect(loc()).toBe('/en/settings');
  });

  it('orders this device first, then by last use', () => {
    expect(orderSessions(SESSIONS).map((s) => s.id)).toEqual(['s-here', 's-blank', 's-old']);
  });
});
