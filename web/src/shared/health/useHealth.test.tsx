/**
 * The health indicator's server probe (product spec sections 4 and 7): HEAD /api/health once at
 * start, every 30 s, again when the page becomes visible or the browser comes back online; a
 * probe without an answer within 5 s counts as failed (and is cancelled). Fake timers.
 */
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../test/renderApp';
import { HEALTH_PROBE_INTERVAL_MS, HEALTH_PROBE_TIMEOUT_MS } from './healthLogic';
import { readServiceWorkerState, useHealth } from './useHealth';

type Answer = 'ok' | 'hang' | 'down';

/** HEAD /api/health answering as `answer()` says at the time of each call; `signals` are the probes' abort signals. */
function healthServer(answer: () => Answer) {
  const signals: AbortSignal[] = [];
  const fetch = mockFetch({
    'HEAD /api/health': (_url, init) => {
      signals.push(init.signal!);
      const a = answer();
      if (a === 'ok') return new Response(null, { status: 200 });
      if (a === 'down') return json(503, { success: false, error: { code: 'UNAVAILABLE', message: 'down' } });
      return new Promise<Response>((_, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    },
  });
  const probes = () => fetch.mock.calls.filter(([u, init]) => u === '/api/health' && init?.method === 'HEAD').length;
  return { probes, signals };
}

let visibility: DocumentVisibilityState = 'visible';
beforeEach(() => {
  vi.useFakeTimers();
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  delete (document as { visibilityState?: unknown }).visibilityState;
});

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const settle = () => advance(0);

function setVisibility(v: DocumentVisibilityState) {
  visibility = v;
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

describe('useHealth: the server probe', () => {
  it('the spec numbers: every 30 s, 5 s timeout', () => {
    expect(HEALTH_PROBE_INTERVAL_MS).toBe(30_000);
    expect(HEALTH_PROBE_TIMEOUT_MS).toBe(5_000);
  });

  it('probes at start, then every 30 s, and not in between', async () => {
    const server = healthServer(() => 'ok');
    const { result, unmount } = renderHook(() => useHealth());
    await settle();
    expect(server.probes()).toBe(1);
    expect(result.current.checks.connection).toBe('healthy');
    await advance(29_999);
    expect(server.probes()).toBe(1);
    await advance(1);
    expect(server.probes()).toBe(2);
    await advance(30_000);
    expect(server.probes()).toBe(3);
    unmount();
    await advance(60_000);
    expect(server.probes()).toBe(3);
  });

  it('probes again when the page becomes visible (not when it is hidden) and when the browser is back online', async () => {
    const server = healthServer(() => 'ok');
    renderHook(() => useHealth());
    await settle();
    expect(server.probes()).toBe(1);
    setVisibility('hidden');
    await settle();
    expect(server.probes()).toBe(1);
    setVisibility('visible');
    await settle();
    expect(server.probes()).toBe(2);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await settle();
    expect(server.probes()).toBe(3);
  });

  it('a probe without an answer after 5 s counts as failed and is cancelled; one that answers in time is healthy', async () => {
    let answer: Answer = 'hang';
    const server = healthServer(() => answer);
    const { result } = renderHook(() => useHealth());
    await advance(HEALTH_PROBE_TIMEOUT_MS - 1);
    expect(result.current.checks.connection).toBe('checking');
    expect(server.signals[0]!.aborted).toBe(false);
    await advance(1);
    expect(server.signals[0]!.aborted).toBe(true);
    expect(['warning', 'error']).toContain(result.current.checks.connection);
    expect(result.current.overall).not.toBe('healthy');

    // The next probe (30 s after the first) answers: healthy again.
    answer = 'ok';
    await advance(HEALTH_PROBE_INTERVAL_MS - HEALTH_PROBE_TIMEOUT_MS);
    expect(server.probes()).toBe(2);
    expect(result.current.checks.connection).toBe('healthy');
  });

  it('a server error answer counts as failed at once', async () => {
    const server = healthServer(() => 'down');
    const { result } = renderHook(() => useHealth());
    await settle();
    expect(server.probes()).toBe(1);
    expect(['warning', 'error']).toContain(result.current.checks.connection);
  });
});

describe('the service worker check without a service worker', () => {
  afterEach(() => {
    delete (navigator as { serviceWorker?: unknown }).serviceWorker;
  });
  it('navigator.serviceWorker there but undefined (a private window), or missing: unsupported, no crash', async () => {
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: undefined });
    await expect(readServiceWorkerState()).resolves.toBe('unsupported');
    delete (navigator as { serviceWorker?: unknown }).serviceWorker;
    await expect(readServiceWorkerState()).resolves.toBe('unsupported');
  });
});
