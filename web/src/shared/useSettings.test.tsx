/**
 * useSettings: the one reader of GET /api/settings. Several readers share one request and one
 * entry (so a save reaches them all); disabled, it asks nothing; a failure is retried only where
 * asked (the settings page), elsewhere the reader falls back at once.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SWRConfig, useSWRConfig } from 'swr';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { swrKeys } from '../lib/swrKeys';
import type { Settings } from '../lib/types';
import { json, mockFetch, ok } from '../test/renderApp';
import { useSettings } from './useSettings';

const TOKYO = { timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 10, speak_titles: false, hide_notification_content: false } as Settings;

// A fresh cache per test; retries after 5 ms instead of SWR's seconds.
function wrapper({ children }: { children: ReactNode }) {
  return <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0, errorRetryInterval: 5 }}>{children}</SWRConfig>;
}

const settingsGets = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.filter(([u, init]) => u === '/api/settings' && (init?.method ?? 'GET') === 'GET').length;
const pause = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

describe('useSettings', () => {
  // The client reports a 5xx on the console; these answers are meant.
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });

  it('readers mounted together share one request and its answer', async () => {
    const fetch = mockFetch({ 'GET /api/settings': () => ok(TOKYO) });
    const { result } = renderHook(() => ({ page: useSettings(), zone: useSettings(), form: useSettings({ retry: true }) }), { wrapper });
    await waitFor(() => expect(result.current.page.data?.timezone).toBe('Asia/Tokyo'));
    expect(result.current.zone.data?.timezone).toBe('Asia/Tokyo');
    expect(result.current.form.data?.timezone).toBe('Asia/Tokyo');
    expect(settingsGets(fetch)).toBe(1);
  });

  it('a save written to the settings entry reaches every reader', async () => {
    mockFetch({ 'GET /api/settings': () => ok(TOKYO) });
    const { result } = renderHook(() => ({ reader: useSettings(), form: useSettings({ retry: true }), config: useSWRConfig() }), { wrapper });
    await waitFor(() => expect(result.current.reader.data?.timezone).toBe('Asia/Tokyo'));
    // What the settings page does after PUT (its own mutate), and the EN/JA switch (mutate by key).
    await act(() => result.current.form.mutate({ ...TOKYO, timezone: 'Europe/Paris' }, { revalidate: false }));
    expect(result.current.reader.data?.timezone).toBe('Europe/Paris');
    await act(() => result.current.config.mutate(swrKeys.settings(), { ...TOKYO, language: 'en' }, { revalidate: false }));
    expect(result.current.reader.data?.language).toBe('en');
    expect(result.current.form.data?.language).toBe('en');
  });

  it('disabled (signed out), it asks nothing', async () => {
    const fetch = mockFetch({ 'GET /api/settings': () => ok(TOKYO) });
    const { result } = renderHook(() => useSettings({ enabled: false }), { wrapper });
    await pause(30);
    expect(settingsGets(fetch)).toBe(0);
    expect(result.current.data).toBeUndefined();
    expect(result.current.isLoading).toBe(false);
  });

  it('a failure is not retried by default: the reader has its error at once and no second request', async () => {
    const fetch = mockFetch({ 'GET /api/settings': () => json(500, { success: false, error: { code: 'INTERNAL', message: 'down' } }) });
    const { result } = renderHook(() => useSettings(), { wrapper });
    await waitFor(() => expect(result.current.error).toBeDefined());
    await pause(100);
    expect(settingsGets(fetch)).toBe(1);
  });

  it('with retry (the settings page) a failure is asked again, and the answer then arrives', async () => {
    let calls = 0;
    const fetch = mockFetch({
      'GET /api/settings': () => (++calls === 1 ? json(500, { success: false, error: { code: 'INTERNAL', message: 'down' } }) : ok(TOKYO)),
    });
    const { result } = renderHook(() => useSettings({ retry: true }), { wrapper });
    await waitFor(() => expect(result.current.data?.timezone).toBe('Asia/Tokyo'));
    expect(settingsGets(fetch)).toBe(2);
  });
});
