/**
 * Auth state. The session itself is an HttpOnly cookie set by the server at verify; the app only
 * keeps `{user}` in localStorage under `auth-storage` (never a token).
 * - startup and sign-in events run a session check (GET /api/auth/session);
 * - sign-out, a failed session check (401) or any 401 AUTHENTICATION_REQUIRED returns to signed out.
 */
import { useSyncExternalStore } from 'react';
import { api, isApiError } from './api';
import type { User } from './types';

export const AUTH_STORAGE_KEY = 'auth-storage';

export type AuthStatus = 'checking' | 'signedIn' | 'signedOut';

export interface AuthState {
  user: User | null;
  isAdmin: boolean;
  status: AuthStatus;
  /** the last session check failed for a reason other than 401 (offline, server down) */
  checkFailed: boolean;
  /**
   * The page (pathname) where the person signed out or deleted the account: that page, if
   * protected, goes home quietly instead of to the login page with "authentication required".
   */
  signedOutFrom: string | null;
}

function readStoredUser(): User | null {
  try {
    const raw = localStorage.getItem(AUTH_STORAGE_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { user?: User | null };
    return parsed.user && typeof parsed.user.id === 'string' ? parsed.user : null;
  } catch {
    return null;
  }
}

function writeStoredUser(user: User | null): void {
  try {
    if (user) localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ user }));
    else localStorage.removeItem(AUTH_STORAGE_KEY);
  } catch {
    /* storage unavailable */
  }
}

const storedUser = readStoredUser();
let state: AuthState = {
  user: storedUser,
  isAdmin: false,
  status: storedUser ? 'signedIn' : 'checking',
  checkFailed: false,
  signedOutFrom: null,
};
const listeners = new Set<() => void>();
const signOutHooks = new Set<() => void | Promise<void>>();

function set(patch: Partial<AuthState>) {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export function getAuthState(): AuthState {
  return state;
}

export function subscribeAuth(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function useAuth(): AuthState {
  return useSyncExternalStore(subscribeAuth, getAuthState, getAuthState);
}

/** Called on sign-out (wipe offline cache, clear SWR cache, unsubscribe push…). */
export function onSignOut(fn: () => void | Promise<void>): () => void {
  signOutHooks.add(fn);
  return () => signOutHooks.delete(fn);
}

export function signedIn(user: User, isAdmin = state.isAdmin): void {
  writeStoredUser(user);
  set({ user, isAdmin, status: 'signedIn', checkFailed: false, signedOutFrom: null });
}

/** Signed out here; resolves once the sign-out hooks (the offline wipe…) have run. */
function clearLocal(): Promise<unknown> {
  const hadUser = state.user !== null;
  writeStoredUser(null);
  set({ user: null, isAdmin: false, status: 'signedOut' });
  return Promise.all(hadUser ? [...signOutHooks].map((h) => Promise.resolve(h()).catch(() => {})) : []);
}

/**
 * About to end the session on purpose on page `from` (deleting the account): the 401s that may
 * answer other requests meanwhile sign out quietly. `null` undoes it when that failed.
 */
export function expectSignOut(from: string | null): void {
  if (state.user) set({ signedOutFrom: from });
}

/**
 * Sign-out on page `from` (decisions.md "Sign-out is complete"): first this device stops
 * receiving the account's reminders (unsubscribed on the server, while the session can still
 * say so, and in the browser), then the session ends, then the local state and the offline
 * cache are wiped. The unsubscribe step never blocks sign-out (offline, no service worker, no
 * subscription). An ordinary sign-out clears locally whatever the server answered; `everywhere`
 * (`logout?all=true`, every session of the user) throws instead when the server could not be
 * told, since the other sessions would still be signed in.
 */
export async function signOut(from: string | null = null, everywhere = false): Promise<void> {
  // Set first: the logout call (or any request) answering 401 clears the session on its own.
  if (from !== null) set({ signedOutFrom: from });
  // Offline, no service worker, or already gone: the browser's part is done where it could be.
  await import('./push/pushClient').then((m) => m.disableNotifications()).catch(() => {});
  try {
    await api.request<void>('POST', '/api/auth/logout', { query: { all: everywhere || undefined } });
  } catch (e) {
    if (everywhere && !(isApiError(e) && e.status === 401)) {
      set({ signedOutFrom: null });
      throw e;
    }
    /* the cookie may already be gone */
  }
  await clearLocal();
}

let checking: Promise<void> | null = null;

export function checkSession(): Promise<void> {
  if (checking) return checking;
  checking = (async () => {
    try {
      const s = await api.auth.session();
      signedIn(s.user, s.is_admin);
    } catch (e) {
      if (isApiError(e) && (e.status === 401 || e.status === 403)) void clearLocal();
      else if (state.user) set({ checkFailed: true }); // offline: keep the cached user
      else set({ status: 'signedOut', checkFailed: true });
    } finally {
      checking = null;
    }
  })();
  return checking;
}

/**
 * Wires 401 AUTHENTICATION_REQUIRED to logout, and re-checks when another tab signs in/out (or
 * clears localStorage).
 */
// Any 401 with error_type AUTHENTICATION_REQUIRED logs the user out.
api.setAuthRequiredHandler(() => void clearLocal());

export function installAuth(): void {
  window.addEventListener('storage', (e) => {
    // key null: another tab cleared all of localStorage (auth-storage with it), which signs out
    // as removing auth-storage does. sessionStorage is not shared with other tabs.
    if (e.storageArea && e.storageArea !== localStorage) return;
    if (e.key !== AUTH_STORAGE_KEY && e.key !== null) return;
    const user = readStoredUser();
    if (user) void checkSession();
    else if (state.user) void clearLocal();
  });
  void checkSession();
}

/** Test helper. */
export function resetAuthForTests(next: Partial<AuthState> = {}): void {
  state = { user: null, isAdmin: false, status: 'signedOut', checkFailed: false, signedOutFrom: null, ...next };
  for (const l of listeners) l();
}
