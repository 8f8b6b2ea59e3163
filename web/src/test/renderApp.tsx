import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from '../lib/router';
import { SWRConfig } from 'swr';
import { vi } from 'vitest';
import { AppRoutes } from '../app/router';
import { initI18n } from '../i18n';
import { langFromPath } from '../lib/lang';

export function LocationProbe() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search + l.hash}</output>;
}

export function renderApp(path: string) {
  const i18n = initI18n(langFromPath(path));
  void i18n.changeLanguage(langFromPath(path));
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </SWRConfig>,
  );
}

export type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

/** Replaces fetch with a router of `METHOD /path` (query ignored) -> handler. */
export function mockFetch(routes: Record<string, Handler>) {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input.toString();
    const path = url.split('?')[0];
    const key = `${init.method ?? 'GET'} ${path}`;
    const handler = routes[key];
    if (!handler) return json(404, { success: false, error: { code: 'NOT_FOUND', message: `no mock for ${key}` } });
    return handler(url, init);
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

export function json(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const ok = (data: unknown, status = 200) => json(status, { success: true, data });

export const unauthorized = () =>
  json(401, { success: false, error: { code: 'UNAUTHORIZED', message: 'Sign in' }, error_type: 'AUTHENTICATION_REQUIRED' });

/** A promise the test settles when it chooses: a server answer held back. */
export function deferred<T>() {
  let resolve!: (v: T | PromiseLike<T>) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/**
 * Loads the app's lazy modules (pages, signed-in header, overlays) once. Call it in beforeAll:
 * on a busy machine their first transform alone can outlast what a findBy waits for.
 */
export async function preloadApp(): Promise<void> {
  await Promise.all([
    import('../app/SignedInControls'),
    import('../app/Overlays'),
    import('../app/routes/DashboardRoute'),
    import('../app/routes/RemindersRoute'),
    import('../app/routes/SettingsRoute'),
    import('../app/routes/GuidePage'),
    import('../features/settings/DeleteAccountPage'),
    import('../features/admin/AdminPage'),
    import('../features/admin/TestEmailPage'),
  ]);
}
