/**
 * Lists on the reminders page and the dashboard: the switcher filters the list the app holds
 * (`?list=<id>` kept in the address, and offline on the cached list), the search folds scripts
 * and widths as the server does and says when nothing matches, the dialog puts a new reminder
 * in the list shown and sends list_id (queued offline too), and each reminder shows its list's
 * colour and name only when there are several lists.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import { cachedLists, pendingActions, startOfflineSync, stopOfflineSync } from '../../lib/offline/offlineSync';
import type { List, Reminder, User } from '../../lib/types';
import { LISTS } from '../../test/listsFixtures';
import { mockFetch, ok, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';

const AT = '2030-01-02T00:00:05Z';
let user: User;

function reminder(id: string, title: string, listId: string, extra: Partial<Reminder> = {}): Reminder {
  return {
    id, user_id: user.id, title, send_at: AT, scheduled_at: AT, timezone: 'Asia/Tokyo', recurrence: { kind: 'none' }, alerts: [{ before_minutes: 0 }],
    overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: listId, assignees: [], rotate: false, break_through: false, created_by: user.id,
    created_at: AT, updated_at: AT, ...extra,
  };
}

const REMINDERS = () => [
  reminder('a', 'ギュウニュウを買う', 'l-default'),
  reminder('b', 'Report', 'l-work', { description: 'ｍｉｌｋ the numbers' }),
  reminder('c', 'ｷﾞｭｳﾆｭｳ 2本', 'l-work'),
  reminder('d', 'Call the bank', 'l-work'),
];

let online = true;
function setOnline(value: boolean) {
  online = value;
  act(() => void window.dispatchEvent(new Event(value ? 'online' : 'offline')));
}

beforeAll(preloadApp, 120_000);
beforeEach(async () => {
  clearToasts();
  online = true;
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  user = { id: `u-lists-${Math.random()}`, email: 'taro@example.com', is_active: true, created_at: AT, updated_at: AT };
  resetAuthForTests({ user, status: 'signedIn' });
  await startOfflineSync(user.id);
});
afterEach(() => stopOfflineSync());

const rows = () =>
  within(screen.getByRole('tabpanel'))
    .queryAllByRole('heading', { level: 2 })
    .map((h) => h.textContent);
const location = () => screen.getByTestId('location').textContent;

async function openPage(lang: Lang, path = '', routes: Parameters<typeof mockFetch>[0] = {}, lists: List[] = LISTS, first = 'Call the bank') {
  const fetch = mockFetch({
    'GET /api/lists': () => ok(lists),
    'GET /api/reminders': (url) => ok(new URL(url, 'http://x').searchParams.get('status') === 'archived' ? [] : REMINDERS()),
    'POST /api/reminders/preview': () => ok({ occurrences: [] }),
    ...routes,
  });
  renderApp(`${lang === 'en' ? '/en/reminders' : '/reminders'}${path}`);
  await screen.findByRole('heading', { level: 1, name: tr(lang, 'reminders:title') });
  if (first) await screen.findAllByRole('heading', { level: 2, name: first });
  return fetch;
}

const switcher = (lang: Lang) => screen.findByRole('group', { name: tr(lang, 'lists:switcher.label') });

describe('the list switcher', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: All and each list with its count; choosing one filters the held list and puts it in the address`, async () => {
      const fetch = await openPage(lang);
      const group = await switcher(lang);
      const all = within(group).getByRole('button', { name: `${tr(lang, 'lists:switcher.all')} ${tr(lang, 'lists:switcher.count_other', { count: 4 })}` });
      expect(all).toHaveAttribute('aria-pressed', 'true');
      const work = within(group).getByRole('button', { name: `Work ${tr(lang, 'lists:switcher.count_other', { count: 3 })}` });
      expect(work).toHaveAttribute('aria-pressed', 'false');
      expect(within(group).getByRole('button', { name: new RegExp(`^Reminders ${tr(lang, lang === 'en' ? 'lists:switcher.count_one' : 'lists:switcher.count_other', { count: 1 })}`) })).toBeInTheDocument();
      expect(rows()).toHaveLength(4);
      const reads = fetch.mock.calls.length;

      fireEvent.click(work);
      await waitFor(() => expect(rows()).toEqual(['Report', 'ｷﾞｭｳﾆｭｳ 2本', 'Call the bank']));
      expect(work).toHaveAttribute('aria-pressed', 'true');
      expect(all).toHaveAttribute('aria-pressed', 'false');
      expect(location()).toMatch(/\?list=l-work$/);
      // filtered on the device: no request asked the server for it
      expect(fetch.mock.calls.slice(reads).map(([u]) => String(u)).filter((u) => u.includes('list_id') && !u.includes('archived'))).toEqual([]);

      fireEvent.click(all);
      await waitFor(() => expect(rows()).toHaveLength(4));
      expect(location()).not.toContain('list=');
    });
  }

  it('en: the list in the address is shown on arrival (a reload, Back), its button pressed', async () => {
    await openPage('en', '?list=l-work');
    const group = await switcher('en');
    expect(within(group).getByRole('button', { name: /^Work/ })).toHaveAttribute('aria-pressed', 'true');
    expect(rows()).toEqual(['Report', 'ｷﾞｭｳﾆｭｳ 2本', 'Call the bank']);
  });

  it('en: a list that is gone shows every list and leaves the address', async () => {
    await openPage('en', '?list=l-deleted');
    await waitFor(() => expect(location()).not.toContain('list='));
    expect(rows()).toHaveLength(4);
  });

  it('en: a list with no reminders says so and offers every list and a new reminder in it', async () => {
    await openPage('en', '?list=l-empty', {}, [...LISTS, { ...LISTS[1]!, id: 'l-empty', name: 'Someday', colour: 'teal' }], '');
    const panel = screen.getByRole('tabpanel');
    expect(await within(panel).findByText('No reminders in “Someday” yet.')).toBeInTheDocument();
    fireEvent.click(within(panel).getByRole('button', { name: 'Show every list' }));
    await waitFor(() => expect(rows()).toHaveLength(4));
  });

  it('ja: with a single list there is nothing to choose and no list colour on the rows', async () => {
    await openPage('ja', '', {}, [LISTS[0]!]);
    await screen.findByRole('button', { name: 'リスト' });
    expect(screen.queryByRole('group', { name: '表示するリスト' })).toBeNull();
    expect(screen.queryByText(/^リスト：/)).toBeNull();
  });

  it('ja: each row names its list for screen readers and shows its colour and name', async () => {
    await openPage('ja');
    const row = screen.getByRole('heading', { level: 2, name: 'Report' }).closest('li')!;
    expect(within(row).getByText('リスト：Work')).toHaveClass('sr-only');
    expect(row.querySelector('.list-tag.lc-red .list-dot')).not.toBeNull();
    const other = screen.getByRole('heading', { level: 2, name: 'ギュウニュウを買う' }).closest('li')!;
    expect(within(other).getByText('リスト：Reminders')).toBeInTheDocument();
  });

  it('ja: offline after a reload, the cached reminders and lists still filter', async () => {
    await openPage('ja');
    await switcher('ja');
    // what the page read is kept on the device; then a reload without a connection
    await waitFor(async () => expect(await cachedLists()).toHaveLength(2));
    cleanup();
    setOnline(false);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    renderApp('/reminders?list=l-work');
    const group = await switcher('ja');
    expect(within(group).getByRole('button', { name: /^Work/ })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(rows()).toEqual(['Report', 'ｷﾞｭｳﾆｭｳ 2本', 'Call the bank']));
    fireEvent.change(screen.getByRole('searchbox', { name: 'リマインダーを検索' }), { target: { value: 'ぎゅうにゅう' } });
    await waitFor(() => expect(rows()).toEqual(['ｷﾞｭｳﾆｭｳ 2本']));
  });
});

describe('search', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: hiragana finds katakana of either width, "milk" finds full-width letters; none found says so and clears`, async () => {
      await openPage(lang);
      const box = screen.getByRole('searchbox', { name: tr(lang, 'reminders:search.label') });
      fireEvent.change(box, { target: { value: 'ぎゅうにゅう' } });
      await waitFor(() => expect(rows()).toEqual(['ギュウニュウを買う', 'ｷﾞｭｳﾆｭｳ 2本']));
      expect(screen.getByText(tr(lang, 'reminders:search.found_other', { count: 2 }))).toHaveAttribute('aria-live', 'polite');
      fireEvent.change(box, { target: { value: 'MILK' } });
      await waitFor(() => expect(rows()).toEqual(['Report']));

      fireEvent.change(box, { target: { value: 'tea' } });
      const panel = screen.getByRole('tabpanel');
      expect(await within(panel).findByText(tr(lang, 'reminders:search.noMatch', { q: 'tea' }))).toBeInTheDocument();
      // no "create" in a search's empty state: it offers to clear
      fireEvent.click(within(panel).getByRole('button', { name: tr(lang, 'reminders:search.clear') }));
      await waitFor(() => expect(rows()).toHaveLength(4));
      expect(box).toHaveValue('');
    });
  }

  it('en: within a list, the empty search names the list; the clear button beside the box clears it', async () => {
    await openPage('en', '?list=l-default', {}, LISTS, 'ギュウニュウを買う');
    const box = screen.getByRole('searchbox', { name: 'Search reminders' });
    fireEvent.change(box, { target: { value: 'report' } });
    expect(await screen.findByText('No reminders in “Reminders” match “report”.')).toBeInTheDocument();
    const clear = within(screen.getByRole('search')).getByRole('button', { name: 'Clear search' });
    fireEvent.click(clear);
    expect(box).toHaveValue('');
    expect(box).toHaveFocus();
    await waitFor(() => expect(rows()).toEqual(['ギュウニュウを買う']));
  });

  it('en: the completed tab asks the server for the list and the search', async () => {
    const fetch = await openPage('en', '?list=l-work');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search reminders' }), { target: { value: ' milk ' } });
    fireEvent.click(screen.getByRole('tab', { name: tr('en', 'reminders:tabs.completed') }));
    await waitFor(() =>
      expect(
        fetch.mock.calls.map(([u]) => String(u)).some((u) => {
          const q = new URL(u, 'http://x').searchParams;
          return q.get('status') === 'archived' && q.get('list_id') === 'l-work' && q.get('q') === 'milk';
        }),
      ).toBe(true),
    );
    expect(await screen.findByText('No reminders in “Work” match “milk”.')).toBeInTheDocument();
  });
});

describe('the dialog picks the list', () => {
  const created = (title: string, listId: string) => reminder('new', title, listId);

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: a new reminder goes in the list shown; another can be chosen; list_id is sent`, async () => {
      const sent: unknown[] = [];
      await openPage(lang, '?list=l-work', {
        'POST /api/reminders': (_u, init) => {
          const body = JSON.parse(String(init.body)) as { title: string; list_id: string };
          sent.push(body);
          return ok(created(body.title, body.list_id), 201);
        },
      });
      fireEvent.click(within(screen.getByRole('main')).getAllByRole('button', { name: tr(lang, 'reminders:create') })[0]!);
      const dialog = await screen.findByRole('dialog', { name: tr(lang, 'reminders:dialog.createTitle') });
      const select = within(dialog).getByRole('combobox', { name: tr(lang, 'reminders:fields.list') });
      expect(select).toHaveValue('l-work');
      expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Reminders', 'Work']);
      fireEvent.change(within(dialog).getByLabelText(tr(lang, 'reminders:fields.title')), { target: { value: 'Stretch' } });
      fireEvent.change(within(dialog).getByLabelText(tr(lang, 'reminders:fields.date')), { target: { value: '2030-01-03' } });
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'reminders:dialog.save') }));
      await waitFor(() => expect(sent).toEqual([expect.objectContaining({ title: 'Stretch', list_id: 'l-work' })]));
    });
  }

  it('en: with every list shown, a new reminder starts in the default list and can go in another', async () => {
    const sent: unknown[] = [];
    await openPage('en', '', {
      'POST /api/reminders': (_u, init) => {
        const body = JSON.parse(String(init.body)) as { title: string; list_id: string };
        sent.push(body);
        return ok(created(body.title, body.list_id), 201);
      },
    });
    fireEvent.click(within(screen.getByRole('main')).getAllByRole('button', { name: 'Create reminder' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Create reminder' });
    const select = within(dialog).getByRole('combobox', { name: 'List' });
    expect(select).toHaveValue('l-default');
    fireEvent.change(select, { target: { value: 'l-work' } });
    fireEvent.change(within(dialog).getByLabelText('Title'), { target: { value: 'Stretch' } });
    fireEvent.change(within(dialog).getByLabelText('Date'), { target: { value: '2030-01-03' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toEqual([expect.objectContaining({ title: 'Stretch', list_id: 'l-work' })]));
  });

  it('en: an edit moves a reminder to another list (only list_id is sent)', async () => {
    const sent: unknown[] = [];
    await openPage('en', '', {
      'PUT /api/reminders/d': (_u, init) => {
        sent.push(JSON.parse(String(init.body)));
        return ok(reminder('d', 'Call the bank', 'l-default'));
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit “Call the bank”' }));
    const dialog = await screen.findByRole('dialog', { name: tr('en', 'reminders:dialog.editTitle') });
    const select = within(dialog).getByRole('combobox', { name: 'List' });
    expect(select).toHaveValue('l-work');
    fireEvent.change(select, { target: { value: 'l-default' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toEqual([{ list_id: 'l-default' }]));
  });

  it('ja: offline, the queued create carries list_id and shows in that list at once', async () => {
    const fetch = await openPage('ja', '?list=l-work');
    setOnline(false);
    fireEvent.click(within(screen.getByRole('main')).getAllByRole('button', { name: tr('ja', 'reminders:create') })[0]!);
    const dialog = await screen.findByRole('dialog', { name: tr('ja', 'reminders:dialog.createTitle') });
    fireEvent.change(within(dialog).getByLabelText(tr('ja', 'reminders:fields.title')), { target: { value: 'ストレッチ' } });
    fireEvent.change(within(dialog).getByLabelText(tr('ja', 'reminders:fields.date')), { target: { value: '2030-01-03' } });
    fireEvent.click(within(dialog).getByRole('button', { name: tr('ja', 'reminders:dialog.save') }));
    await waitFor(() => expect(rows()).toContain('ストレッチ'));
    const [queued] = await pendingActions();
    expect(queued).toMatchObject({ type: 'create', data: { title: 'ストレッチ', list_id: 'l-work' } });
    // nothing was sent: it waits in the queue
    expect(fetch.mock.calls.filter(([u, init]) => init?.method === 'POST' && String(u) === '/api/reminders')).toEqual([]);
  });
});

describe('the dashboard', () => {
  it('en: each upcoming reminder shows its list when there are several', async () => {
    mockFetch({
      'GET /api/lists': () => ok(LISTS),
      'GET /api/reminders': (url) => ok(new URL(url, 'http://x').searchParams.get('status') === 'archived' ? [] : REMINDERS()),
    });
    renderApp('/en');
    const item = (await screen.findByRole('heading', { level: 3, name: 'Report' })).closest('li')!;
    expect(await within(item).findByText('List: Work')).toBeInTheDocument();
    expect(item.querySelector('.lc-red .list-dot')).not.toBeNull();
  });

  it('ja: with one list, no list is named', async () => {
    mockFetch({
      'GET /api/lists': () => ok([LISTS[0]]),
      'GET /api/reminders': (url) => ok(new URL(url, 'http://x').searchParams.get('status') === 'archived' ? [] : REMINDERS()),
    });
    renderApp('/');
    await screen.findByRole('heading', { level: 3, name: 'Report' });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(/^リスト：/)).toBeNull();
  });
});
