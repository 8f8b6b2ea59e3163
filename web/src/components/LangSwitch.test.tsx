import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests } from '../lib/authStore';
import { tr } from '../test/texts';
import { clearToasts } from './toast';
import type { User } from '../lib/types';
import { json, mockFetch, ok, renderApp } from '../test/renderApp';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const SETTINGS = { timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 10 };
const loc = () => screen.getByTestId('location').textContent;
const settingsPuts = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter((c) => c[0] === '/api/settings' && c[1]?.method === 'PUT').map((c) => JSON.parse(c[1]!.body as string) as unknown);

describe('EN/JA switch, signed in', () => {
  beforeEach(() => {
    clearToasts();
    resetAuthForTests({ status: 'signedIn', user: USER });
  });

  it("saves the account's language, so email and push follow it", async () => {
    const fetch = mockFetch({
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'GET /api/settings': () => ok(SETTINGS),
      'PUT /api/settings': () => ok({ ...SETTINGS, language: 'en' }),
    });
    renderApp('/faq');
    fireEvent.click(await screen.findByRole('button', { name: 'EN' }));
    await waitFor(() => expect(settingsPuts(fetch)).toEqual([{ language: 'en' }]));
    expect(loc()).toBe('/en/faq');
  });

  it('a failed save does not hold the switch up', async () => {
    mockFetch({
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'PUT /api/settings': () => json(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'x' } }),
    });
    renderApp('/en/faq');
    fireEvent.click(await screen.findByRole('button', { name: 'JA' }));
    await waitFor(() => expect(loc()).toBe('/faq'));
  });

  it('offline, it switches without trying to save', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const fetch = mockFetch({
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'PUT /api/settings': () => ok(SETTINGS),
    });
    renderApp('/faq');
    fireEvent.click(await screen.findByRole('button', { name: 'EN' }));
    await waitFor(() => expect(loc()).toBe('/en/faq'));
    // Back online, the next switch saves: only that one reaches the server (a save started
    // offline would have come first).
    online.mockReturnValue(true);
    fireEvent.click(screen.getByRole('button', { name: 'JA' }));
    await waitFor(() => expect(settingsPuts(fetch)).toEqual([{ language: 'ja' }]));
  });

  it("says so when the account's language changed, and Undo puts back only the account's language", async () => {
    let account = 'ja';
    const fetch = mockFetch({
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'GET /api/settings': () => ok({ ...SETTINGS, language: account }),
      'PUT /api/settings': (_, init) => {
        account = (JSON.parse(init.body as string) as { language: string }).language;
        return ok({ ...SETTINGS, language: account });
      },
    });
    renderApp('/faq');
    fireEvent.click(await screen.findByRole('button', { name: 'EN' }));
    // in the page's new language
    expect(await screen.findByText(tr('en', 'settings:accountLanguage.changed'))).toBeInTheDocument();
    expect(tr('en', 'settings:accountLanguage.changed')).toBe('Emails and notifications are now in English.');
    fireEvent.click(screen.getByRole('button', { name: tr('en', 'settings:accountLanguage.undo') }));
    expect(await screen.findByText(tr('en', 'settings:accountLanguage.undone'))).toBeInTheDocument();
    expect(settingsPuts(fetch)).toEqual([{ language: 'en' }, { language: 'ja' }]);
    expect(account).toBe('ja');
    // the page stays in the language chosen
    expect(loc()).toBe('/en/faq');
    expect(screen.getByRole('button', { name: 'EN' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('says it in Japanese when switching to Japanese', async () => {
    mockFetch({
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'GET /api/settings': () => ok({ ...SETTINGS, language: 'en' }),
      'PUT /api/settings': () => ok(SETTINGS),
    });
    renderApp('/en/faq');
    fireEvent.click(await screen.findByRole('button', { name: 'JA' }));
    expect(await screen.findByText('メールと通知も日本語になりました。')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '元に戻す' })).toBeInTheDocument();
  });

  it("says nothing and saves nothing when the account already reads that language", async () => {
    const fetch = mockFetch({
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'GET /api/settings': () => ok({ ...SETTINGS, language: 'en' }),
      'PUT /api/settings': () => ok({ ...SETTINGS, language: 'en' }),
    });
    renderApp('/faq');
    fireEvent.click(await screen.findByRole('button', { name: 'EN' }));
    await waitFor(() => expect(fetch.mock.calls.filter((c) => c[0] === '/api/settings')).toHaveLength(1));
    // what would follow the read (the save, the toast) has had its turn
    await new Promise((r) => setTimeout(r, 50));
    expect(settingsPuts(fetch)).toEqual([]);
    expect(screen.queryByText(tr('en', 'settings:accountLanguage.changed'))).toBeNull();
    expect(screen.queryByRole('button', { name: tr('en', 'settings:accountLanguage.undo') })).toBeNull();
  });

  it('a failed Undo says so', async () => {
    let puts = 0;
    mockFetch({
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'GET /api/settings': () => ok(SETTINGS),
      'PUT /api/settings': () => (++puts === 1 ? ok({ ...SETTINGS, language: 'en' }) : json(503, { success: false, error: { code: 'UNAVAILABLE', message: 'x' } })),
    });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderApp('/faq');
    fireEvent.click(await screen.findByRole('button', { name: 'EN' }));
    fireEvent.click(await screen.findByRole('button', { name: tr('en', 'settings:accountLanguage.undo') }));
    expect(await screen.findByText(tr('en', 'settings:accountLanguage.undoFailed'))).toBeInTheDocument();
  });
});
