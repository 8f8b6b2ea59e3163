/**
 * The offline/sync banner's pending count: the banner alone, then with the real offline sync
 * (encrypted IndexedDB queue in fake-indexeddb): the count goes up as actions are queued offline,
 * down to nothing as they sync once back online, and follows a queue changed elsewhere (the 5 s
 * sync-status poll).
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { OfflineStore } from '../../lib/offline/offlineDb';
import { enqueue, pendingCount, startOfflineSync, stopOfflineSync } from '../../lib/offline/offlineSync';
import { getPendingCount, setPendingCount, SYNC_STATUS_POLL_MS } from '../../lib/offline/pendingStatus';
import type { Reminder } from '../../lib/types';
import { mockFetch, ok } from '../../test/renderApp';
import { OfflineBanner, SyncBanner } from './OfflineBanner';

async function inLang(lang: 'ja' | 'en', ui: React.ReactNode) {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces('offline');
  return render(<Suspense fallback={null}>{ui}</Suspense>);
}

const banner = () => document.querySelector('.offline-banner');

afterEach(() => {
  stopOfflineSync();
  setPendingCount(0);
  vi.useRealTimers();
});

describe('SyncBanner', () => {
  it('online with nothing queued: no banner', async () => {
    await inLang('en', <SyncBanner online pending={0} />);
    expect(banner()).toBeNull();
  });

  it('offline: the spec text, and the count once something is queued', async () => {
    const { rerender } = await inLang('ja', <SyncBanner online={false} pending={0} />);
    expect(screen.getByRole('status')).toHaveTextContent('オフラインモード');
    expect(screen.queryByText(/同期待ち/)).toBeNull();
    rerender(<SyncBanner online={false} pending={3} />);
    expect(screen.getByRole('status')).toHaveTextContent('オフラインモード');
    expect(screen.getByText('同期待ち：3件')).toBeInTheDocument();
  });

  it('shown, its height is --bottom-banner-height (the install cards and the toasts stay above it); gone, so is that', async () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 390, 43.5));
    const height = () => document.documentElement.style.getPropertyValue('--bottom-banner-height');
    const { rerender } = await inLang('en', <SyncBanner online={false} pending={0} />);
    expect(banner()).not.toBeNull();
    expect(height()).toBe('44px');
    rerender(<SyncBanner online pending={1} />);
    expect(height()).toBe('44px');
    rerender(<SyncBanner online pending={0} />);
    expect(banner()).toBeNull();
    expect(height()).toBe('');
  });

  it('back online with actions still queued: "Syncing" and the count', async () => {
    await inLang('en', <SyncBanner online pending={2} />);
    const status = screen.getByRole('status');
    expect(status).toHaveClass('syncing');
    expect(status).toHaveTextContent('Syncing Waiting to sync: 2');
    expect(status).not.toHaveTextContent('Offline mode');
  });
});

const INPUT = { title: 'Stretch', send_at: '2030-01-02T09:00:00+09:00', timezone: 'Asia/Tokyo', recurrence: { kind: 'daily' as const } };

function serverReminder(id: string, title = 'Stretch'): Reminder {
  const at = '2030-01-02T00:00:00Z';
  return { ...INPUT, title, id, user_id: 'u-banner', scheduled_at: at, alerts: [{ before_minutes: 0 }], overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: 'list-1', assignees: [], rotate: false, break_through: false, created_by: 'u1', created_at: at, updated_at: at };
}

describe('OfflineBanner with the pending-action queue', () => {
  it('counts actions as they are queued offline and as they sync back online', async () => {
    let online = false;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    const posted: unknown[] = [];
    const put: string[] = [];
    let releasePost!: () => void;
    const postHeld = new Promise<void>((r) => (releasePost = r));
    mockFetch({
      'POST /api/reminders': async (_u, init) => {
        posted.push(JSON.parse(init.body as string));
        await postHeld;
        return ok(serverReminder('r-1'), 201);
      },
      'PUT /api/reminders/r-1': (url) => {
        put.push(url);
        return ok(serverReminder('r-1', 'Stretch more'));
      },
      'GET /api/reminders': () => ok([]),
    });

    const userId = `u-banner-${Math.random()}`;
    await startOfflineSync(userId);
    await inLang('en', <OfflineBanner />);
    expect(screen.getByRole('status')).toHaveTextContent('Offline mode');
    expect(screen.queryByText(/Waiting to sync/)).toBeNull();

    await act(() => enqueue({ type: 'create', reminderId: 'temp-1', data: INPUT }));
    expect(await screen.findByText('Waiting to sync: 1')).toBeInTheDocument();
    await act(() => enqueue({ type: 'update', reminderId: 'temp-1', data: { ...INPUT, title: 'Stretch more' } }));
    expect(await screen.findByText('Waiting to sync: 2')).toBeInTheDocument();
    expect(await pendingCount()).toBe(2);
    expect(posted).toHaveLength(0);

    // Back online: the queue runs; while the create is in flight both are still waiting.
    online = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(screen.getByRole('status')).toHaveTextContent('Syncing Waiting to sync: 2');
    releasePost();
    // the create went through, then the update (on the server id): nothing left, no banner
    await waitFor(() => expect(banner()).toBeNull());
    expect(put).toEqual(['/api/reminders/r-1']);
    expect(getPendingCount()).toBe(0);
    expect(await pendingCount()).toBe(0);
  });

  it('follows the queue when it changes elsewhere (the 5 s sync-status poll)', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const userId = `u-poll-${Math.random()}`;
    await startOfflineSync(userId);
    await inLang('ja', <OfflineBanner />);
    expect(screen.getByRole('status')).toHaveTextContent('オフラインモード');

    // another tab queues an action into the same store
    const other = await OfflineStore.open(userId);
    await other.queue().add({ type: 'create', reminderId: 'temp-2', data: INPUT, timestamp: Date.now(), retryCount: 0 });
    other.db.close();
    expect(screen.queryByText(/同期待ち/)).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(SYNC_STATUS_POLL_MS);
    });
    expect(await screen.findByText('同期待ち：1件')).toBeInTheDocument();

    // sign-out stops the sync and clears the count
    act(() => stopOfflineSync());
    await waitFor(() => expect(screen.queryByText(/同期待ち/)).toBeNull());
  });
});
