/**
 * Every route has its own document title in its language: "<page> | Hibiki", from the page's
 * heading, never the bare app name.
 */
import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../components/toast';
import { resetAuthForTests } from '../lib/authStore';
import type { User } from '../lib/types';
import { mockFetch, ok, renderApp } from '../test/renderApp';
import { ROUTES } from './router';
import { ROUTE_TITLES, titleTextFor } from './routeTitles';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };

const SIGNED_OUT: [string, string, string][] = [
  ['/', '響きで届く、大切な予定。 | Hibiki', 'Reminders you hear. | Hibiki'],
  ['/login', 'ログイン | Hibiki', 'Sign in | Hibiki'],
  ['/faq', 'よくある質問 | Hibiki', 'Frequently asked questions | Hibiki'],
  ['/guide', 'ガイド | Hibiki', 'Guide | Hibiki'],
  ['/privacy', 'プライバシーポリシー | Hibiki', 'Privacy Policy | Hibiki'],
  ['/terms', '利用規約 | Hibiki', 'Terms of Service | Hibiki'],
  ['/commercial-transaction-act', '特定商取引法に基づく表記 | Hibiki', 'Specified Commercial Transactions Act | Hibiki'],
  ['/status', 'システム状態 | Hibiki', 'System status | Hibiki'],
  ['/no/such/page', 'ページが見つかりません | Hibiki', 'Page not found | Hibiki'],
];

const SIGNED_IN: [string, string, string][] = [
  ['/', 'ダッシュボード | Hibiki', 'Dashboard | Hibiki'],
  ['/reminders', 'リマインダー | Hibiki', 'Reminders | Hibiki'],
  ['/settings', '設定 | Hibiki', 'Settings | Hibiki'],
  ['/settings/delete-account', 'アカウントの削除 | Hibiki', 'Delete account | Hibiki'],
  ['/admin', '管理 | Hibiki', 'Admin | Hibiki'],
  ['/admin/users', 'ユーザー | Hibiki', 'Users | Hibiki'],
  ['/test-email', 'テストメール | Hibiki', 'Test email | Hibiki'],
];

beforeEach(() => {
  clearToasts();
  document.title = 'Hibiki';
});

describe('document titles', () => {
  it('every route of the router has its title text; others read "not found"', () => {
    expect(ROUTES.map((r) => r.path).filter((p) => !ROUTE_TITLES[p])).toEqual([]);
    expect(titleTextFor('/en/settings/', true)).toBe('settings:title');
    expect(titleTextFor('/en', true)).toBe('reminders:dashboard.title');
    expect(titleTextFor('/enx', false)).toBe('common:notFound.title');
  });

  describe('signed out', () => {
    beforeEach(() => resetAuthForTests({ status: 'signedOut' }));
    for (const [path, ja, en] of SIGNED_OUT) {
      it(`${path}: "${ja}" / "${en}"`, async () => {
        mockFetch({});
        const { unmount } = renderApp(path);
        await waitFor(() => expect(document.title).toBe(ja));
        unmount();
        renderApp(path === '/' ? '/en' : `/en${path}`);
        await waitFor(() => expect(document.title).toBe(en));
      });
    }
  });

  describe('signed in (an admin)', () => {
    beforeEach(() => resetAuthForTests({ status: 'signedIn', user: USER, isAdmin: true }));
    for (const [path, ja, en] of SIGNED_IN) {
      it(`${path}: "${ja}" / "${en}"`, async () => {
        mockFetch({
          'GET /api/auth/session': () => ok({ user: USER, is_admin: true }),
          'GET /api/reminders': () => ok([]),
          'GET /api/settings': () => ok({ timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 10 }),
        });
        const { unmount } = renderApp(path);
        await waitFor(() => expect(document.title).toBe(ja));
        unmount();
        renderApp(path === '/' ? '/en' : `/en${path}`);
        await waitFor(() => expect(document.title).toBe(en));
      });
    }
  });
});
