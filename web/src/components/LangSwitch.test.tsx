import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests } from '../lib/authStore';
import type { User } from '../lib/types';
import { json, mockFetch, ok, renderApp } from '../test/renderApp';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const SETTINGS = { timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 10 };
const loc = () => screen.getByTestId('location').textContent;
const settingsPuts = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.filter((c) => c[0] === '/api/settings' && c[1]?.method === 'PUT').map((c) => JSON.parse(c[1]!.body as string) as unknown);

describe('EN/JA switch, signed in', () => {
  beforeEach(() => resetAuthForTests({ status: 'signedIn', user: USER }));

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
});
