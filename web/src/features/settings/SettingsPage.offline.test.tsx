/**
 * Settings offline: what needs the server (saving, calendar links, ending sessions, removing
 * devices, deleting the account) is disabled and says why in words beside it; settings not yet
 * loaded say they will load when back online, not that loading failed.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { User } from '../../lib/types';
import { mockFetch, ok, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const SETTINGS = { timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 10, speak_titles: false, hide_notification_content: false, email_fallback_minutes: 5, morning_time: '08:00', evening_time: '18:00' };
const SESSIONS = [
  { id: 's-here', label: 'Chrome on Android', created_at: '2026-02-03T00:00:00Z', last_used_at: '2026-02-20T00:00:00Z', current: true },
  { id: 's-old', label: 'Firefox on Windows', created_at: '2026-01-10T01:00:00Z', last_used_at: '2026-02-01T03:00:00Z', current: false },
];
const prefix = (lang: Lang) => (lang === 'en' ? '/en' : '');

function goOffline() {
  const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  return {
    back: () => {
      online.mockReturnValue(true);
      act(() => void window.dispatchEvent(new Event('online')));
    },
    now: () => act(() => void window.dispatchEvent(new Event('offline'))),
  };
}

beforeAll(preloadApp, 120_000);
beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('Settings offline', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: nothing loaded yet says it loads when back online, and every network action is disabled with its reason in words`, async () => {
      goOffline();
      const fetch = vi.fn((_url: string) => Promise.reject(new TypeError('Failed to fetch')));
      vi.stubGlobal('fetch', fetch);
      renderApp(`${prefix(lang)}/settings`);
      expect(await screen.findByText(tr(lang, 'settings:offline.loadLater'))).toBeVisible();
      expect(screen.queryByText(tr(lang, 'settings:loadFailed'))).toBeNull();

      const create = screen.getByRole('button', { name: tr(lang, 'settings:calendar.create') });
      expect(create).toBeDisabled();
      expect(create).toHaveAccessibleDescription(tr(lang, 'settings:calendar.offline'));
      expect(screen.getByText(tr(lang, 'settings:calendar.offline'))).toBeVisible();
      expect(screen.getByRole('button', { name: tr(lang, 'settings:calendar.turnOffEarlier') })).toBeDisabled();

      const everywhere = screen.getByRole('button', { name: tr(lang, 'sessions:signOutEverywhere') });
      expect(everywhere).toBeDisabled();
      expect(screen.getByText(tr(lang, 'sessions:offline'))).toBeVisible();
      expect(await screen.findByText(tr(lang, 'sessions:loadLater'))).toBeVisible();
      expect(await screen.findByText(tr(lang, 'notifications:devices.loadLater'))).toBeVisible();
      expect(screen.queryByText(tr(lang, 'sessions:loadFailed'))).toBeNull();

      fireEvent.click(create);
      expect(fetch.mock.calls.some(([url]) => String(url).includes('/api/calendar'))).toBe(false);
    });
  }

  it('en: loaded, then offline: saving, calendar links and ending sessions wait with their reasons; back online they can be used', async () => {
    mockFetch({
      'GET /api/settings': () => ok(SETTINGS),
      'GET /api/notifications/subscriptions': () => ok([]),
      'GET /api/auth/sessions': () => ok(SESSIONS),
    });
    renderApp('/en/settings');
    const save = await screen.findByRole('button', { name: tr('en', 'settings:save') });
    const sessions = await screen.findByRole('region', { name: tr('en', 'sessions:title') });
    const end = await within(sessions).findByRole('button', { name: tr('en', 'sessions:endNamed', { name: 'Firefox on Windows' }) });
    expect(save).toBeEnabled();
    expect(end).toBeEnabled();
    expect(screen.queryByText(tr('en', 'settings:offline.save'))).toBeNull();

    const network = goOffline();
    network.now();
    await waitFor(() => expect(save).toBeDisabled());
    expect(screen.getByText(tr('en', 'settings:offline.save'))).toBeVisible();
    expect(save).toHaveAccessibleDescription(tr('en', 'settings:offline.save'));
    expect(screen.getByRole('button', { name: tr('en', 'settings:calendar.create') })).toBeDisabled();
    expect(end).toBeDisabled();
    expect(end).toHaveAccessibleDescription(tr('en', 'sessions:offline'));
    // the form still shows the settings (not "will load")
    expect(screen.queryByText(tr('en', 'settings:offline.loadLater'))).toBeNull();

    network.back();
    await waitFor(() => expect(save).toBeEnabled());
    expect(screen.getByRole('button', { name: tr('en', 'settings:calendar.create') })).toBeEnabled();
    expect(end).toBeEnabled();
    expect(screen.queryByText(tr('en', 'settings:offline.save'))).toBeNull();
  });

  it('ja: deleting the account waits for the connection and says so', async () => {
    goOffline();
    mockFetch({});
    renderApp('/settings/delete-account');
    const field = await screen.findByLabelText(tr('ja', 'settings:delete.confirmLabel', { email: USER.email }));
    fireEvent.change(field, { target: { value: USER.email } });
    const button = screen.getByRole('button', { name: tr('ja', 'settings:delete.submit') });
    expect(button).toBeDisabled();
    expect(screen.getByText(tr('ja', 'settings:delete.offline'))).toBeVisible();
  });
});
