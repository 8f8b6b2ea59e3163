/**
 * Sign-in state from another tab (lib/authStore installAuth): the tabs share `auth-storage` in
 * localStorage and the session cookie, and a browser tells the other tabs of a change with a
 * `storage` event. Another tab signing in makes this one check the session and show the signed-in
 * app; another tab signing out, or clearing all of localStorage, signs this one out (and runs the
 * sign-out hooks: the offline wipe); other keys change nothing.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../components/toast';
import { AUTH_STORAGE_KEY, getAuthState, installAuth, onSignOut, resetAuthForTests } from '../lib/authStore';
import type { User } from '../lib/types';
import { json, mockFetch, ok, preloadApp, renderApp } from '../test/renderApp';
import { tr } from '../test/texts';

const TARO: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const HANAKO: User = { ...TARO, id: 'u2', email: 'hanako@example.com' };

/** What the server's session check answers now (the cookie the tabs share). */
let session: User | null = null;
let sessionChecks = 0;

/** Another tab of this browser writes `auth-storage` (or removes it): this tab gets the storage event. */
function otherTab(user: User | null) {
  const oldValue = localStorage.getItem(AUTH_STORAGE_KEY);
  const newValue = user ? JSON.stringify({ user }) : null;
  if (newValue) localStorage.setItem(AUTH_STORAGE_KEY, newValue);
  else localStorage.removeItem(AUTH_STORAGE_KEY);
  act(() => void window.dispatchEvent(new StorageEvent('storage', { key: AUTH_STORAGE_KEY, oldValue, newValue, storageArea: localStorage })));
}

beforeAll(async () => {
  await preloadApp();
  mockFetch({ 'GET /api/auth/session': () => json(401, { success: false, error: { code: 'UNAUTHORIZED', message: 'no' } }) });
  // once, as main.tsx does after the first paint (its listener stays for the whole file)
  installAuth();
  await waitFor(() => expect(getAuthState().status).toBe('signedOut'));
}, 120_000);

beforeEach(() => {
  clearToasts();
  session = null;
  sessionChecks = 0;
  mockFetch({
    'GET /api/auth/session': () => {
      sessionChecks += 1;
      return session ? ok({ user: session, is_admin: false }) : json(401, { success: false, error: { code: 'UNAUTHORIZED', message: 'no' } });
    },
    'GET /api/reminders': () => ok([]),
    'POST /api/auth/logout': () => json(204, null),
  });
});

describe('sign-in state from another tab', () => {
  it('en: another tab signs in: this tab checks the session and turns into the signed-in app', async () => {
    resetAuthForTests({ status: 'signedOut' });
    renderApp('/en');
    expect(await screen.findByRole('link', { name: tr('en', 'nav.signIn') })).toBeInTheDocument();
    session = TARO;
    otherTab(TARO);
    await waitFor(() => expect(getAuthState()).toMatchObject({ user: TARO, status: 'signedIn' }));
    expect(sessionChecks).toBe(1);
    expect(await screen.findByRole('heading', { level: 1, name: tr('en', 'reminders:dashboard.title') })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: tr('en', 'nav.signIn') })).toBeNull();
  });

  it('ja: another tab signs out: this tab is signed out too (without asking the server) and its sign-out hooks run', async () => {
    localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ user: TARO }));
    resetAuthForTests({ user: TARO, status: 'signedIn' });
    const wiped = vi.fn();
    const off = onSignOut(wiped);
    renderApp('/');
    await screen.findByRole('heading', { level: 1, name: tr('ja', 'reminders:dashboard.title') });
    otherTab(null);
    await waitFor(() => expect(getAuthState()).toMatchObject({ user: null, status: 'signedOut' }));
    expect(wiped).toHaveBeenCalledOnce(); // the offline cache of the account goes here too
    expect(await screen.findByRole('link', { name: tr('ja', 'nav.signIn') })).toBeInTheDocument();
    expect(sessionChecks).toBe(0);
    off();
  });

  it('another tab signs in as someone else: this tab follows the session to that account', async () => {
    localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ user: TARO }));
    resetAuthForTests({ user: TARO, status: 'signedIn' });
    session = HANAKO;
    otherTab(HANAKO);
    await waitFor(() => expect(getAuthState().user).toEqual(HANAKO));
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!)).toEqual({ user: HANAKO });
  });

  it('a stored user the session check does not confirm (401) signs this tab out rather than trusting it', async () => {
    resetAuthForTests({ status: 'signedOut' });
    session = null;
    otherTab(TARO);
    await waitFor(() => expect(sessionChecks).toBe(1));
    await waitFor(() => expect(getAuthState()).toMatchObject({ user: null, status: 'signedOut' }));
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: another tab clears all of localStorage (key null): this tab is signed out as by a sign-out there`, async () => {
      localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ user: TARO }));
      resetAuthForTests({ user: TARO, status: 'signedIn' });
      const wiped = vi.fn();
      const off = onSignOut(wiped);
      renderApp(lang === 'ja' ? '/' : '/en');
      await screen.findByRole('heading', { level: 1, name: tr(lang, 'reminders:dashboard.title') });
      localStorage.clear();
      act(() => void window.dispatchEvent(new StorageEvent('storage', { key: null, oldValue: null, newValue: null, storageArea: localStorage })));
      await waitFor(() => expect(getAuthState()).toMatchObject({ user: null, status: 'signedOut' }));
      expect(wiped).toHaveBeenCalledOnce();
      expect(await screen.findByRole('link', { name: tr(lang, 'nav.signIn') })).toBeInTheDocument();
      expect(sessionChecks).toBe(0);
      off();
    });
  }

  it('sessionStorage cleared in this tab (key null, not localStorage) changes nothing', async () => {
    localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ user: TARO }));
    resetAuthForTests({ user: TARO, status: 'signedIn' });
    act(() => void window.dispatchEvent(new StorageEvent('storage', { key: null, storageArea: sessionStorage })));
    await new Promise((r) => setTimeout(r, 50));
    expect(sessionChecks).toBe(0);
    expect(getAuthState()).toMatchObject({ user: TARO, status: 'signedIn' });
  });

  it('other keys change nothing', async () => {
    resetAuthForTests({ user: TARO, status: 'signedIn' });
    act(() => void window.dispatchEvent(new StorageEvent('storage', { key: 'hibiki.lang', newValue: 'en', storageArea: localStorage })));
    await new Promise((r) => setTimeout(r, 50));
    expect(sessionChecks).toBe(0);
    expect(getAuthState()).toMatchObject({ user: TARO, status: 'signedIn' });
  });
});
