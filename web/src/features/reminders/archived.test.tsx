/**
 * The archived (completed) reminders come a page of 50 at a time (`status=archived&limit=&offset=`,
 * `X-Total-Count`), with "Show more" while there are more; the pending list asks for the active
 * ones only; the dashboard's completed count is the server's total.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { Reminder, User } from '../../lib/types';
import { json, mockFetch, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };

function reminder(id: string, extra: Partial<Reminder> = {}): Reminder {
  const at = '2030-01-01T00:00:00Z';
  return {
    id, user_id: 'u1', title: `Title ${id}`, send_at: at, scheduled_at: at, timezone: 'Asia/Tokyo',
    recurrence: { kind: 'none' }, alerts: [{ before_minutes: 0 }], overdue: false, is_active: true, is_archived: false, status: 'pending', created_at: at, updated_at: at, ...extra,
  } as Reminder;
}
const archived = (n: number) =>
  Array.from({ length: n }, (_, i) => reminder(`a${i + 1}`, { is_archived: true, is_active: false, status: 'completed', scheduled_at: null }));

/** A server that answers by `status`, `limit` and `offset` as api.md says, and records each list query. */
function server(active: Reminder[], done: Reminder[], opts: { total?: boolean } = {}) {
  const queries: string[] = [];
  let archivedNow = done;
  mockFetch({
    'GET /api/reminders': (url) => {
      const q = new URL(url, 'http://x').searchParams;
      queries.push(q.toString());
      if (q.get('status') === 'archived') {
        const offset = Number(q.get('offset') ?? 0);
        const limit = Number(q.get('limit') ?? 500);
        const body = JSON.stringify({ success: true, data: archivedNow.slice(offset, offset + limit) });
        const headers: Record<string, string> = { 'Content-Type': 'application/json' };
        if (opts.total !== false) headers['X-Total-Count'] = String(archivedNow.length);
        return new Response(body, { status: 200, headers });
      }
      return json(200, { success: true, data: active });
    },
    'DELETE /api/reminders/a2': () => {
      archivedNow = archivedNow.filter((r) => r.id !== 'a2');
      return json(204, null);
    },
  });
  return queries;
}

const completedTab = (lang: Lang) => screen.findByRole('tab', { name: tr(lang, 'reminders:tabs.completed') });
const rows = () => within(screen.getByRole('tabpanel')).queryAllByRole('heading', { level: 2 });

beforeAll(() => preloadApp());
beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
});

describe('the completed (archived) list', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: 50 at a time, "Show more" while X-Total-Count says there are more`, async () => {
      const queries = server([reminder('p1')], archived(120));
      renderApp(lang === 'ja' ? '/reminders' : '/en/reminders');
      fireEvent.click(await completedTab(lang));
      await waitFor(() => expect(rows()).toHaveLength(50));
      expect(rows()[0]).toHaveTextContent('Title a1');
      // each says when it was completed (its last change), not when it was due
      expect(rows()[0]!.closest('li')).toHaveTextContent(lang === 'ja' ? /に完了/ : /Completed \S/);
      expect(screen.getByText(tr(lang, 'reminders:archived.shown', { shown: 50, total: 120 }))).toBeInTheDocument();
      expect(screen.getByText(tr(lang, 'reminders:archived.kept'))).toBeInTheDocument();
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'reminders:archived.showMore') }));
      await waitFor(() => expect(rows()).toHaveLength(100));
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'reminders:archived.showMore') }));
      await waitFor(() => expect(rows()).toHaveLength(120));
      expect(rows()[119]).toHaveTextContent('Title a120');
      expect(screen.getByText(tr(lang, 'reminders:archived.shown', { shown: 120, total: 120 }))).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: tr(lang, 'reminders:archived.showMore') })).toBeNull();
      // the pending list asks for the active ones only; the archived ones come in pages
      expect(new Set(queries)).toEqual(new Set(['status=active', 'status=archived&limit=50&offset=0', 'status=archived&limit=50&offset=50', 'status=archived&limit=50&offset=100']));
    });
  }

  it('no "Show more" when everything fits on one page', async () => {
    server([], archived(3));
    renderApp('/en/reminders?tab=completed');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByText('Showing 3 of 3')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('a server without X-Total-Count: a full page offers more, a short one ends the list', async () => {
    server([], archived(60), { total: false });
    renderApp('/en/reminders?tab=completed');
    await waitFor(() => expect(rows()).toHaveLength(50));
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(rows()).toHaveLength(60));
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('an empty archive says so', async () => {
    server([reminder('p1')], []);
    renderApp('/reminders?tab=completed');
    expect(await screen.findByText(tr('ja', 'reminders:emptyCompleted'))).toBeInTheDocument();
  });

  it('deleting an archived reminder takes it off its page', async () => {
    server([], archived(3));
    renderApp('/en/reminders?tab=completed');
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: /^Delete .*Title a2/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: tr('en', 'reminders:delete') }));
    await waitFor(() => expect(rows().map((h) => h.textContent)).toEqual(['Title a1', 'Title a3']));
    expect(await screen.findByText('Showing 2 of 2')).toBeInTheDocument();
  });
});

describe('the dashboard', () => {
  it("counts completed by the server's total, not the page it has", async () => {
    server([reminder('p1'), reminder('p2')], archived(987));
    renderApp('/en');
    const stats = await screen.findByRole('region', { name: 'Reminder counts' });
    await waitFor(() => expect(within(stats).getAllByText(/^\d+$/).map((e) => e.textContent)).toEqual(['2', '987', '2'])); // due soon: the next (up to 5) active
  });
});
