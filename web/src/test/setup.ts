import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Files share a worker's jsdom and its node_modules (vitest.config.ts, isolate: false), not
// the app's own modules: each file gets them fresh, as a page load would (the auth store, the
// offline queue, first paint and the rest keep state at module level). Hence a dynamic import
// below, after the reset.
vi.resetModules();
const { markPaintedForTests } = await import('../lib/firstPaint');
// And what a fresh page would have: no databases, no session storage, the address `/`.
globalThis.indexedDB = new IDBFactory();
if (typeof window !== 'undefined') {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
}

// A rendered test screen counts as painted: what waits for the first paint runs at once.
markPaintedForTests();

// jsdom has no layout (its scrollTo reports "not implemented"): here scrolling the window moves
// scrollY and fires "scroll", as a browser does. (Tests of pure code run without a window.)
if (typeof window !== 'undefined') {
  window.scrollTo = ((x: number | ScrollToOptions, y?: number) => {
    const top = typeof x === 'number' ? (y ?? 0) : (x.top ?? window.scrollY);
    if (top === window.scrollY) return;
    Object.defineProperty(window, 'scrollY', { value: top, configurable: true, writable: true });
    window.dispatchEvent(new Event('scroll'));
  }) as typeof window.scrollTo;
}

// findBy*/waitFor wait for a state, not for a time: the 1 s default ran out on a loaded
// machine (a CI run beside a build). A state that never comes still fails, later.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  globalThis.localStorage?.clear();
});
