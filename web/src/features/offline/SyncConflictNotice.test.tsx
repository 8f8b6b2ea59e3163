/**
 * A change made offline that meets someone else's (a shared list's reminder deleted or
 * completed meanwhile) is resolved when the queue runs, and the person is told in a toast in
 * the app's language: here with the real offline sync (encrypted queue and cache in
 * fake-indexeddb) and a server answering through the real API client.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from '../../lib/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/Toaster';
import { clearToasts } from '../../components/toast';
import { initI18n } from '../../i18n';
import { reportConflicts } from '../../lib/offline/conflictReports';
import { cacheReminders, cachedReminders, enqueue, pendingActions, startOfflineSync, stopOfflineSync } from '../../lib/offline/offlineSync';
import type { Reminder } from '../../lib/types';
import { json, mockFetch, ok } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { SyncConflictNotice } from './SyncConflictNotice';

const AT = '2030-01-02T00:00:05Z';

function reminder(id: string, title: string, extra: Partial<Reminder> = {}): Reminder {
  return {
    id, user_id: 'u1', title, send_at: AT, scheduled_at: AT, timezone: 'Asia/Tokyo', recurrence: { kind: 'none' }, alerts: [{ before_minutes: 0 }],
    overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: 'shared-1', assignees: [], rotate: false, break_through: false, created_by: 'u2', created_at: AT, updated_at: AT,
    ...extra,
  };
}

const NOT_FOUND = () => json(404, { success: false, error: { code: 'NOT_FOUND', message: 'Reminder not found' } });

let online = true;
function setOnline(value: boolean) {
  online = value;
  act(() => void window.dispatchEvent(new Event(value ? 'online' : 'offline')));
}

async function renderNotice(lang: 'ja' | 'en') {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces('offline');
  render(
    <MemoryRouter>
      <Toaster />
      <SyncConflictNotice />
    </MemoryRouter>,
  );
}

beforeEach(async () => {
  clearToasts();
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  await startOfflineSync(`u-conflict-${Math.random()}`);
  await cacheReminders([reminder('r1', 'Buy milk'), reminder('r2', 'Call the bank')]);
});
afterEach(() => {
  stopOfflineSync();
  act(() => clearToasts());
});

describe('a change made offline that meets someone else’s', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: an edit of a reminder someone else deleted: dropped, named from the offline cache, and forgotten there`, async () => {
      const put = vi.fn(NOT_FOUND);
      mockFetch({ 'PUT /api/reminders/r1': put });
      await renderNotice(lang);
      setOnline(false);
      await enqueue({ type: 'update', reminderId: 'r1', data: { description: 'two litres' } });

      setOnline(true);
      expect(await screen.findByText(tr(lang, 'offline:conflict.deleted', { title: 'Buy milk' }))).toBeInTheDocument();
      expect(put).toHaveBeenCalledTimes(1);
      expect(await pendingActions()).toEqual([]);
      await waitFor(async () => expect((await cachedReminders()).map((r) => r.id)).toEqual(['r2']));
    });

    it(`${lang}: a snooze of a reminder someone else completed: the completion stands, and the person is told`, async () => {
      mockFetch({ 'POST /api/reminders': () => ok(reminder('r2', 'Call the bank', { status: 'completed', is_archived: true })) });
      await renderNotice(lang);
      setOnline(false);
      await enqueue({ type: 'snooze', reminderId: 'r2', logId: 'l1', data: { snooze_minutes: 10 } });

      setOnline(true);
      expect(await screen.findByText(tr(lang, 'offline:conflict.completed', { title: 'Call the bank' }))).toBeInTheDocument();
      expect(await pendingActions()).toEqual([]);
    });
  }

  it('ja: a conflict reported before the notice mounted is told as it mounts, without a title when none is known', async () => {
    act(() => reportConflicts([{ action: { type: 'complete', reminderId: 'r9', logId: 'l', timestamp: 1, retryCount: 0 }, kind: 'deleted' }]));
    await renderNotice('ja');
    expect(await screen.findByText('他の人が削除していたリマインダーがあったため、変更は保存されませんでした。')).toBeInTheDocument();
  });
});
