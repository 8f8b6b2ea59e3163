/**
 * useOpenCreateRequest: the header's "create" (navigation state) and `?new=1` open the create
 * dialog 100 ms after the page knows its list and the settings, with the handlers current then;
 * at the limit they say so instead; quick add's phrase opens it filled in; the request then
 * leaves the address. Fake timers.
 */
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateFunction } from '../../../lib/router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '../../../components/toast';
import { initI18n } from '../../../i18n';
import { OPEN_CREATE_DELAY_MS, OPEN_CREATE_DIALOG, QUICK_ADD_PREFILL, type QuickAddPrefill } from '../../../shared/navState';
import { useOpenCreateRequest, type OpenCreateRequestOptions } from './useOpenCreateRequest';

type Entry = string | { pathname: string; search?: string; state?: unknown };

const PREFILL: QuickAddPrefill = { title: '薬', send_at: '2030-01-02T09:00:00+09:00', timezone: 'Asia/Tokyo', recurrence: { kind: 'none' } };

function setup(entry: Entry, options: Partial<OpenCreateRequestOptions> = {}) {
  const openCreate = vi.fn();
  const openQuickAdd = vi.fn();
  const router: { location?: Location; navigate?: NavigateFunction } = {};
  function Probe() {
    router.location = useLocation();
    router.navigate = useNavigate();
    return null;
  }
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[entry]}>
      {children}
      <Probe />
    </MemoryRouter>
  );
  const initialProps: OpenCreateRequestOptions = { ready: true, atLimit: false, openCreate, openQuickAdd, ...options };
  const hook = renderHook((props: OpenCreateRequestOptions) => useOpenCreateRequest(props), { initialProps, wrapper });
  const here = () => `${router.location!.pathname}${router.location!.search}`;
  return { ...hook, initialProps, openCreate, openQuickAdd, router, here };
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const errorToasts = () => getToasts().filter((t) => t.kind === 'error').map((t) => t.message);

beforeAll(async () => {
  const i18n = initI18n('en');
  await i18n.changeLanguage('en');
  await i18n.loadNamespaces('reminders');
});
beforeEach(() => {
  clearToasts();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useOpenCreateRequest', () => {
  it('the delay is 100 ms', () => {
    expect(OPEN_CREATE_DELAY_MS).toBe(100);
  });

  it('?new=1 opens the empty form 100 ms later, not before, and leaves the address with the rest of the query', async () => {
    const { openCreate, openQuickAdd, here } = setup('/en/reminders?new=1&tab=completed');
    await advance(OPEN_CREATE_DELAY_MS - 1);
    expect(openCreate).not.toHaveBeenCalled();
    await advance(1);
    expect(openCreate).toHaveBeenCalledTimes(1);
    expect(openQuickAdd).not.toHaveBeenCalled();
    expect(here()).toBe('/en/reminders?tab=completed');
    await advance(1000);
    expect(openCreate).toHaveBeenCalledTimes(1);
  });

  it('the header\'s request (navigation state) opens it too, and the state is cleared', async () => {
    const { openCreate, router } = setup({ pathname: '/reminders', state: { [OPEN_CREATE_DIALOG]: 1 } });
    await advance(OPEN_CREATE_DELAY_MS);
    expect(openCreate).toHaveBeenCalledTimes(1);
    expect(router.location!.state).toBeNull();
    expect(router.location!.pathname).toBe('/reminders');
  });

  it('waits until the list and the settings are known; the 100 ms count from then', async () => {
    const { openCreate, rerender, initialProps, here } = setup('/en/reminders?new=1', { ready: false });
    await advance(5000);
    expect(openCreate).not.toHaveBeenCalled();
    expect(here()).toBe('/en/reminders?new=1');
    rerender({ ...initialProps, ready: true });
    await advance(OPEN_CREATE_DELAY_MS - 1);
    expect(openCreate).not.toHaveBeenCalled();
    await advance(1);
    expect(openCreate).toHaveBeenCalledTimes(1);
  });

  it('opens with the handlers current when the timer fires (a form in the zone the settings gave meanwhile)', async () => {
    const { openCreate, rerender, initialProps } = setup('/en/reminders?new=1');
    const later = vi.fn();
    await advance(50);
    rerender({ ...initialProps, openCreate: later });
    await advance(50);
    expect(later).toHaveBeenCalledTimes(1);
    expect(openCreate).not.toHaveBeenCalled();
  });

  it('at the limit it shows the limit instead of the form, and still leaves the address', async () => {
    const { openCreate, openQuickAdd, here } = setup('/en/reminders?new=1', { atLimit: true });
    await advance(OPEN_CREATE_DELAY_MS);
    expect(openCreate).not.toHaveBeenCalled();
    expect(openQuickAdd).not.toHaveBeenCalled();
    expect(errorToasts()).toEqual(['You can have at most 100 active reminders. Completed ones do not count.']);
    expect(here()).toBe('/en/reminders');
  });

  it('quick add\'s phrase opens the form filled in', async () => {
    const { openCreate, openQuickAdd } = setup({ pathname: '/reminders', state: { [OPEN_CREATE_DIALOG]: 1, [QUICK_ADD_PREFILL]: PREFILL } });
    await advance(OPEN_CREATE_DELAY_MS);
    expect(openQuickAdd).toHaveBeenCalledWith(PREFILL);
    expect(openCreate).not.toHaveBeenCalled();
  });

  it('a new request on the page (the header pressed again) opens it again', async () => {
    const { openCreate, router } = setup({ pathname: '/reminders', state: { [OPEN_CREATE_DIALOG]: 1 } });
    await advance(OPEN_CREATE_DELAY_MS);
    await act(() => router.navigate!('/reminders', { state: { [OPEN_CREATE_DIALOG]: 2 } }));
    await advance(OPEN_CREATE_DELAY_MS);
    expect(openCreate).toHaveBeenCalledTimes(2);
  });

  it('without a request, or when the page is left before the timer fires, nothing opens', async () => {
    const plain = setup('/en/reminders?tab=completed');
    await advance(1000);
    expect(plain.openCreate).not.toHaveBeenCalled();
    expect(plain.here()).toBe('/en/reminders?tab=completed');
    const left = setup('/en/reminders?new=1');
    await advance(50);
    left.unmount();
    await advance(1000);
    expect(left.openCreate).not.toHaveBeenCalled();
  });
});
