/**
 * The lists hook: read from GET /api/lists and kept sealed on this device, so that offline (a
 * reload without a connection) the lists still name and filter the reminders; each change
 * revalidates the lists and the reminders (a deleted list takes its reminders with it).
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isApiError } from '../../lib/api';
import { resetAuthForTests } from '../../lib/authStore';
import { startOfflineSync, stopOfflineSync } from '../../lib/offline/offlineSync';
import useSWR from 'swr';
import { api } from '../../lib/api';
import { swrKeys } from '../../lib/swrKeys';
import { LISTS } from '../../test/listsFixtures';
import { json, mockFetch, ok } from '../../test/renderApp';
import { useListMutations, useLists } from './useLists';

const AT = '2030-01-01T00:00:00Z';

const wrapper = ({ children }: { children: ReactNode }) => (
  <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>{children}</SWRConfig>
);

beforeEach(async () => {
  const id = `u-lists-${Math.random()}`;
  resetAuthForTests({ user: { id, email: 'a@example.com', is_active: true, created_at: AT, updated_at: AT }, status: 'signedIn' });
  await startOfflineSync(id);
});
afterEach(() => stopOfflineSync());

const calls = (fetch: ReturnType<typeof mockFetch>) => fetch.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url).split('?')[0]}`);

describe('useLists', () => {
  it('reads the lists, and offline serves the ones kept on this device', async () => {
    mockFetch({ 'GET /api/lists': () => ok(LISTS) });
    const first = renderHook(() => useLists(), { wrapper });
    await waitFor(() => expect(first.result.current.data).toEqual(LISTS));
    first.unmount();

    // offline: the request fails as a lost connection does
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const again = renderHook(() => useLists(), { wrapper });
    await waitFor(() => expect(again.result.current.data).toEqual(LISTS));
  });

  it('offline with nothing kept: the error, not an empty list', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    const { result } = renderHook(() => useLists(), { wrapper });
    await waitFor(() => expect(result.current.error).toBeDefined());
    expect(isApiError(result.current.error, 'ERR_NETWORK')).toBe(true);
    expect(result.current.data).toBeUndefined();
  });
});

describe('useListMutations', () => {
  it('create, update and delete send what the API takes, then revalidate the lists and the reminders', async () => {
    const bodies: unknown[] = [];
    const fetch = mockFetch({
      'GET /api/lists': () => ok(LISTS),
      'GET /api/reminders': () => ok([]),
      'POST /api/lists': (_u, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return ok({ ...LISTS[1], id: 'l-new', name: 'Home', colour: 'green' }, 201);
      },
      'PUT /api/lists/l-work': (_u, init) => {
        bodies.push(JSON.parse(String(init.body)));
        return ok({ ...LISTS[1], name: 'Office' });
      },
      'DELETE /api/lists/l-work': () => json(204, null),
    });
    const { result } = renderHook(
      () => {
        const lists = useLists();
        // a mounted reminders reader, as the page has
        useSWR(swrKeys.reminders('active'), () => api.reminders.list('active'));
        return { lists, m: useListMutations() };
      },
      { wrapper },
    );
    await waitFor(() => expect(result.current.lists.data).toBeDefined());
    await waitFor(() => expect(calls(fetch)).toContain('GET /api/reminders'));
    fetch.mockClear();
    await act(async () => {
      await result.current.m.create({ name: 'Home', colour: 'green' });
    });
    expect(calls(fetch).sort()).toEqual(['POST /api/lists', 'GET /api/lists', 'GET /api/reminders'].sort());
    fetch.mockClear();
    await act(async () => {
      await result.current.m.update('l-work', { name: 'Office' });
    });
    expect(calls(fetch).sort()).toEqual(['PUT /api/lists/l-work', 'GET /api/lists', 'GET /api/reminders'].sort());
    fetch.mockClear();
    await act(async () => {
      await result.current.m.remove('l-work');
    });
    expect(calls(fetch).sort()).toEqual(['DELETE /api/lists/l-work', 'GET /api/lists', 'GET /api/reminders'].sort());
    expect(bodies).toEqual([{ name: 'Home', colour: 'green' }, { name: 'Office' }]);
  });

  it('the server refusal comes back as its code (LIST_LIMIT, FORBIDDEN)', async () => {
    mockFetch({
      'POST /api/lists': () => json(409, { success: false, error: { code: 'LIST_LIMIT', message: 'At most 50 lists' } }),
      'PUT /api/lists/l-shared': () => json(403, { success: false, error: { code: 'FORBIDDEN', message: 'Owner only' } }),
    });
    const { result } = renderHook(() => useListMutations(), { wrapper });
    await expect(result.current.create({ name: 'x' })).rejects.toSatisfy((e) => isApiError(e, 'LIST_LIMIT'));
    await expect(result.current.update('l-shared', { name: 'x' })).rejects.toSatisfy((e) => isApiError(e, 'FORBIDDEN'));
  });
});
