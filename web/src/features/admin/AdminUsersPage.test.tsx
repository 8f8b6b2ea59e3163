/**
 * /admin/users against answers shaped exactly as GET /api/admin/users?page=&per_page=:
 * the table, the viewer's locale and time zone, paging (address, requests, controls), and the
 * loading, empty, error and forbidden states.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAuthForTests } from '../../lib/authStore';
import type { User } from '../../lib/types';
import { adminUsersPage } from '../../test/adminUsersFixtures';
import { json, mockFetch, ok, renderApp, type Handler } from '../../test/renderApp';

// The viewer is in Tokyo (the page formats times in the browser's time zone, which it reads
// from Intl). A spy, not a module mock: test files share their modules (vitest.config.ts).
function viewerInTokyo() {
  const resolved = Intl.DateTimeFormat.prototype.resolvedOptions;
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...resolved.call(this), timeZone: 'Asia/Tokyo' };
  });
}

const USER: User = { id: 'u-000', email: 'admin@example.com', is_active: true, created_at: '2026-11-20T23:10:00Z', updated_at: '2026-11-20T23:10:00Z' };
const session = () => ok({ user: USER, is_admin: true });

/** Answers like the server: `?page=&per_page=` of a server with `total` users. */
function usersRoute(total = 120): Handler {
  return (url) => {
    const q = new URL(url, 'http://x').searchParams;
    return ok(adminUsersPage(Number(q.get('page') ?? 1), Number(q.get('per_page') ?? 50), total));
  };
}

const usersCalls = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.map(([u]) => String(u)).filter((u) => u.startsWith('/api/admin/users')).map((u) => Object.fromEntries(new URL(u, 'http://x').searchParams));

const bodyRows = () => [...document.querySelectorAll<HTMLElement>('table tbody tr')];
const cells = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((c) => c.textContent);
const location = () => screen.getByTestId('location').textContent;

// 50-row pages re-rendered a few times are slow in jsdom on a loaded machine
describe('/admin/users', { timeout: 15_000 }, () => {
  beforeEach(() => {
    resetAuthForTests({ user: USER, status: 'signedIn', isAdmin: true });
    viewerInTokyo();
    // "Now" is Tue 2026-11-24 12:00 in Tokyo: dates of 2026 show no year. Only Date is faked.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-24T03:00:00Z') });
  });
  afterEach(() => vi.useRealTimers());

  it('en: the first page as a table, in the viewer’s locale and time zone', async () => {
    const fetch = mockFetch({ 'GET /api/auth/session': session, 'GET /api/admin/users': usersRoute() });
    renderApp('/en/admin/users');
    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    const table = (await screen.findByText('Users, page 1 of 3', { selector: 'caption' })).closest('table')!;
    expect(screen.getByRole('table', { name: 'Users, page 1 of 3' })).toBe(table);
    expect(usersCalls(fetch)).toEqual([{ page: '1', per_page: '50' }]);
    expect([...table.querySelectorAll('thead th')].map((h) => h.textContent)).toEqual([
      'Email',
      'Active reminders',
      'Archived reminders',
      'Last activity',
      'Created',
      'Account',
    ]);
    const rows = bodyRows();
    expect(rows).toHaveLength(50);
    // 2026-11-21T20:30Z is Sun, Nov 22, 5:30 AM in Tokyo
    expect(cells(rows[0]!)).toEqual(['admin@example.com', '3', '12', 'Sun, Nov 22, 5:30 AM', 'Nov 21', 'Active']);
    expect(rows[0]!.querySelectorAll('td')[2]!.querySelector('time')).toHaveAttribute('dateTime', '2026-11-21T20:30:00Z');
    expect(cells(rows[1]!)).toEqual([
      'closed.account@example.org',
      '0',
      '1,200',
      'Sun, Feb 1, 6:15 PM',
      'Jan 2',
      'Inactive',
    ]);
    expect(screen.getByText(/^Users 1–50 of 120\. Times are in your time zone \(Asia\/Tokyo\)\.$/)).toBeInTheDocument();
    const pager = screen.getByRole('navigation', { name: 'Pages of the user list' });
    expect(within(pager).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeEnabled();
    expect(screen.getByRole('link', { name: 'Admin dashboard' })).toHaveAttribute('href', '/en/admin/dashboard');
  });

  it('paging: next and previous ask the server for that page and keep it in the address', async () => {
    const fetch = mockFetch({ 'GET /api/auth/session': session, 'GET /api/admin/users': usersRoute() });
    renderApp('/en/admin/users');
    await screen.findByText('Users, page 1 of 3', { selector: 'caption' });
    const pager = screen.getByRole('navigation', { name: 'Pages of the user list' });

    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByText('Users, page 2 of 3', { selector: 'caption' });
    expect(location()).toBe('/en/admin/users?page=2');
    expect(within(pager).getByText('Page 2 of 3')).toBeInTheDocument();
    expect(screen.getByText(/^Users 51–100 of 120\./)).toBeInTheDocument();
    expect(cells(bodyRows()[0]!)[0]).toBe('user50@example.com');
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeEnabled();

    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByText('Users, page 3 of 3', { selector: 'caption' });
    expect(location()).toBe('/en/admin/users?page=3');
    expect(bodyRows()).toHaveLength(20);
    expect(cells(bodyRows()[19]!)[0]).toBe('user119@example.com');
    expect(screen.getByText(/^Users 101–120 of 120\./)).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();

    fireEvent.click(within(pager).getByRole('button', { name: 'Previous' }));
    await screen.findByText('Users, page 2 of 3', { selector: 'caption' });
    fireEvent.click(within(pager).getByRole('button', { name: 'Previous' }));
    await screen.findByText('Users, page 1 of 3', { selector: 'caption' });
    // page 1 is the bare address
    expect(location()).toBe('/en/admin/users');
    // each new page is asked for once, in order (going back shows SWR's copy while it revalidates)
    expect(usersCalls(fetch).map((q) => q.page).slice(0, 3)).toEqual(['1', '2', '3']);
    expect(usersCalls(fetch).every((q) => q.per_page === '50')).toBe(true);
  });

  it('while the next page loads, the current one stays with the controls disabled', async () => {
    let release: () => void = () => {};
    const route = usersRoute();
    mockFetch({
      'GET /api/auth/session': session,
      'GET /api/admin/users': (url, init) =>
        url.includes('page=2') ? new Promise<Response>((r) => (release = () => r(route(url, init) as Response))) : route(url, init),
    });
    renderApp('/en/admin/users');
    await screen.findByText('Users, page 1 of 3', { selector: 'caption' });
    const pager = screen.getByRole('navigation', { name: 'Pages of the user list' });
    fireEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(pager).getByText('Loading…')).toBeInTheDocument());
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();
    release();
    await screen.findByText('Users, page 2 of 3', { selector: 'caption' });
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'false');
  });

  it('ja: Japanese texts, dates and numbers; ?page= opens that page', async () => {
    const fetch = mockFetch({ 'GET /api/auth/session': session, 'GET /api/admin/users': usersRoute(1234) });
    renderApp('/admin/users?page=2');
    expect(await screen.findByRole('heading', { level: 1, name: 'ユーザー' })).toBeInTheDocument();
    const table = (await screen.findByText('ユーザー一覧（25 ページ中 2 ページ目）', { selector: 'caption' })).closest('table')!;
    expect(usersCalls(fetch)).toEqual([{ page: '2', per_page: '50' }]);
    expect([...table.querySelectorAll('thead th')].map((h) => h.textContent)).toEqual([
      'メールアドレス',
      '有効なリマインダー',
      'アーカイブ済みリマインダー',
      '最終利用',
      '登録日',
      'アカウント',
    ]);
    const row = cells(bodyRows()[0]!);
    expect(row[0]).toBe('user50@example.com');
    expect(row[3]).toBe('11月20日(金) 3:30');
    expect(row[5]).toBe('有効');
    expect(screen.getByText('全 1,234 人中 51〜100 人目。 時刻はお使いのタイムゾーン（Asia/Tokyo）で表示しています。')).toBeInTheDocument();
    const pager = screen.getByRole('navigation', { name: 'ユーザー一覧のページ' });
    expect(within(pager).getByText('25 ページ中 2 ページ目')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: '前へ' })).toBeEnabled();
    expect(within(pager).getByRole('button', { name: '次へ' })).toBeEnabled();
    expect(screen.getByRole('link', { name: '管理ダッシュボード' })).toHaveAttribute('href', '/admin/dashboard');
  });

  it('loading: a spinner until the first answer', async () => {
    let release: () => void = () => {};
    mockFetch({
      'GET /api/auth/session': session,
      'GET /api/admin/users': () => new Promise<Response>((r) => (release = () => r(ok(adminUsersPage(1))))),
    });
    renderApp('/en/admin/users');
    await screen.findByRole('heading', { level: 1, name: 'Users' });
    const main = within(screen.getByRole('main'));
    expect(main.getByRole('status')).toHaveTextContent('Loading…');
    expect(screen.queryByRole('table')).toBeNull();
    release();
    await screen.findByRole('table');
    expect(main.queryByRole('status')).toBeNull();
  });

  it('empty: no users at all', async () => {
    mockFetch({ 'GET /api/auth/session': session, 'GET /api/admin/users': usersRoute(0) });
    renderApp('/en/admin/users');
    expect(await screen.findByText('There are no users yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Pages of the user list' })).toBeNull();
  });

  it('a page past the end (users deleted meanwhile): says so and offers the first page', async () => {
    mockFetch({ 'GET /api/auth/session': session, 'GET /api/admin/users': usersRoute(120) });
    renderApp('/en/admin/users?page=7');
    expect(await screen.findByText('There are no users on this page.')).toBeInTheDocument();
    expect(screen.getByText(/^120 users in all\./)).toBeInTheDocument();
    const pager = screen.getByRole('navigation', { name: 'Pages of the user list' });
    expect(within(pager).getByText('Page 7 of 3')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Go to the first page' }));
    await screen.findByText('Users, page 1 of 3', { selector: 'caption' });
    expect(location()).toBe('/en/admin/users');
  });

  it('not an admin: the forbidden message, no retry, no table', async () => {
    mockFetch({
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'GET /api/admin/users': () => json(403, { success: false, error: { code: 'FORBIDDEN', message: 'You do not have access to this.' } }),
    });
    renderApp('/en/admin/users');
    expect(await screen.findByRole('alert')).toHaveTextContent('This page is for administrators only.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Admin dashboard' })).toBeNull();
  });

  it('a failed load: the error and a retry that loads the page', async () => {
    let fail = true;
    const route = usersRoute();
    mockFetch({
      'GET /api/auth/session': session,
      'GET /api/admin/users': (url, init) =>
        fail ? json(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } }) : route(url, init),
    });
    renderApp('/admin/users');
    expect(await screen.findByRole('alert')).toHaveTextContent('読み込みに失敗しました。');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: '再試行' }));
    await screen.findByText('ユーザー一覧（3 ページ中 1 ページ目）', { selector: 'caption' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
