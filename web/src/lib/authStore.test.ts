import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAuthState, onSignOut, resetAuthForTests, signOut } from './authStore';
import type { User } from './types';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;
function mockFetch(routes: Record<string, Handler>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const handler = routes[`${init.method ?? 'GET'} ${url.split('?')[0]}`];
      return handler ? handler(url, init) : json(404, { success: false, error: { code: 'NOT_FOUND', message: url } });
    }),
  );
}
const ENDPOINT = 'https://push.example.net/wpush/abc';

/** What happened, in order: the server calls (method, path and query) and the browser's unsubscribe. */
let events: string[];

/** A browser with push: a service worker registration holding one subscription (or none). */
function browserWithPush(opts: { subscribed?: boolean; registration?: 'ok' | 'rejects' } = {}) {
  const sub = {
    endpoint: ENDPOINT,
    unsubscribe: vi.fn(async () => {
      events.push('browser unsubscribe');
      return true;
    }),
  };
  vi.stubGlobal('Notification', { permission: 'granted' });
  vi.stubGlobal('PushManager', class {});
  const registration = { pushManager: { getSubscription: async () => (opts.subscribed === false ? null : sub) } };
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      getRegistration: () => (opts.registration === 'rejects' ? Promise.reject(new Error('no worker')) : Promise.resolve(registration)),
    },
  });
  return sub;
}

function server(routes: { unsubscribe?: () => Response | Promise<Response>; logout?: () => Response | Promise<Response> } = {}) {
  return mockFetch({
    'POST /api/notifications': (url, init) => {
      events.push(`POST ${url} ${init.body as string}`);
      return (routes.unsubscribe ?? (() => json(204, null)))();
    },
    'POST /api/auth/logout': (url) => {
      events.push(`POST ${url}`);
      return (routes.logout ?? (() => json(204, null)))();
    },
  });
}

let stopHook: () => void;
beforeEach(() => {
  events = [];
  vi.spyOn(console, 'warn').mockImplementation(() => {}); // the client logs 5xx answers
  resetAuthForTests({ user: USER, status: 'signedIn' });
  // startup.ts's hook: wipe the offline cache and SWR (here: recorded, and it takes a moment).
  stopHook = onSignOut(async () => {
    await new Promise((r) => setTimeout(r, 20));
    events.push('offline cache wiped');
  });
});
afterEach(() => {
  stopHook();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('sign-out is complete', () => {
  it('unsubscribes this device on the server and in the browser, then logs out, then wipes the offline cache', async () => {
    const sub = browserWithPush();
    server();
    await signOut('/en/reminders');
    expect(events).toEqual([
      `POST /api/notifications?action=unsubscribe {"endpoint":"${ENDPOINT}"}`,
      'browser unsubscribe',
      'POST /api/auth/logout',
      'offline cache wiped',
    ]);
    expect(sub.unsubscribe).toHaveBeenCalledOnce();
    expect(getAuthState()).toMatchObject({ user: null, status: 'signedOut', signedOutFrom: '/en/reminders' });
  });

  it('offline: the server is not reached, the browser still unsubscribes and sign-out completes', async () => {
    browserWithPush();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await signOut();
    expect(events).toEqual(['browser unsubscribe', 'offline cache wiped']);
    expect(getAuthState().status).toBe('signedOut');
  });

  it('a server that refuses the unsubscribe does not block sign-out', async () => {
    browserWithPush();
    server({ unsubscribe: () => json(500, { success: false, error: { code: 'INTERNAL', message: 'boom' } }) });
    await signOut();
    expect(events.slice(1)).toEqual(['browser unsubscribe', 'POST /api/auth/logout', 'offline cache wiped']);
    expect(getAuthState().user).toBeNull();
  });

  it('without a subscription, a service worker, or with a broken one, it just signs out', async () => {
    for (const setup of [
      () => browserWithPush({ subscribed: false }),
      () => browserWithPush({ registration: 'rejects' }),
      () => Reflect.deleteProperty(navigator, 'serviceWorker'),
    ]) {
      events = [];
      resetAuthForTests({ user: USER, status: 'signedIn' });
      setup();
      server();
      await signOut();
      expect(events).toEqual(['POST /api/auth/logout', 'offline cache wiped']);
      expect(getAuthState().status).toBe('signedOut');
    }
  });

  it('everywhere: logout?all=true after the device unsubscribe, then the same wipe', async () => {
    browserWithPush();
    server();
    await signOut('/settings', true);
    expect(events).toEqual([
      `POST /api/notifications?action=unsubscribe {"endpoint":"${ENDPOINT}"}`,
      'browser unsubscribe',
      'POST /api/auth/logout?all=true',
      'offline cache wiped',
    ]);
    expect(getAuthState().status).toBe('signedOut');
  });

  it('everywhere: when the server could not be told, it says so and this browser stays signed in', async () => {
    server({ logout: () => json(503, { success: false, error: { code: 'UNAVAILABLE', message: 'later' } }) });
    await expect(signOut('/settings', true)).rejects.toMatchObject({ status: 503 });
    expect(getAuthState()).toMatchObject({ user: USER, status: 'signedIn', signedOutFrom: null });
    expect(events).toEqual(['POST /api/auth/logout?all=true']);
  });

  it('an ordinary sign-out clears locally whatever the server answers', async () => {
    server({ logout: () => json(500, { success: false, error: { code: 'INTERNAL', message: 'boom' } }) });
    await signOut();
    expect(getAuthState().status).toBe('signedOut');
  });
});
