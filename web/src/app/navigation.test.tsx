/**
 * Signed-in navigation: admin links (header, menu, side nav) only for an admin, as the session
 * check says; and the health panel's "Troubleshooting" link opens the guide's troubleshooting
 * section, from another page and from the guide itself.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../components/toast';
import { checkSession, resetAuthForTests } from '../lib/authStore';
import type { Lang } from '../lib/lang';
import type { User } from '../lib/types';
import { mockFetch, ok, preloadApp, renderApp } from '../test/renderApp';
import { tr } from '../test/texts';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const loc = () => screen.getByTestId('location').textContent;
const prefix = (lang: Lang) => (lang === 'en' ? '/en' : '');
const ADMIN_PATHS = /\/(admin|admin\/users|admin\/dashboard|test-email)$/;

// On a busy machine a lazy page's first transform alone can outlast what a findBy waits for.
beforeAll(preloadApp, 120_000);

beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

/** Signed in as the server's session answer says (admin or not), on the dashboard, with the menu open. */
async function dashboardWithMenu(lang: Lang, isAdmin: boolean) {
  mockFetch({
    'GET /api/auth/session': () => ok({ user: USER, is_admin: isAdmin }),
    'GET /api/reminders': () => ok([]),
  });
  await act(() => checkSession());
  renderApp(lang === 'en' ? '/en' : '/');
  fireEvent.click(await screen.findByLabelText(tr(lang, 'nav.menu')));
  // The menu is open: its settings and sign-out entries are there.
  await screen.findByRole('button', { name: tr(lang, 'nav.signOut') });
  expect(screen.getAllByRole('link', { name: tr(lang, 'nav.settings') }).length).toBeGreaterThan(0);
}

const adminLinks = () => [...document.querySelectorAll('a[href]')].filter((a) => ADMIN_PATHS.test(a.getAttribute('href')!));

describe('admin links', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: an admin sees the admin link in the menu`, async () => {
      await dashboardWithMenu(lang, true);
      const link = await screen.findByRole('link', { name: tr(lang, 'nav.admin') });
      expect(link).toHaveAttribute('href', `${prefix(lang)}/admin`);
      fireEvent.click(link);
      await waitFor(() => expect(loc()).toBe(`${prefix(lang)}/admin`));
    });

    it(`${lang}: a user who is not an admin sees no admin link anywhere`, async () => {
      await dashboardWithMenu(lang, false);
      expect(screen.queryByRole('link', { name: tr(lang, 'nav.admin') })).toBeNull();
      expect(adminLinks()).toEqual([]);
    });
  }
});

describe('the admin pages, opened by someone who is not an admin', () => {
  for (const lang of ['ja', 'en'] as const) {
    for (const path of ['/admin', '/admin/dashboard', '/admin/users']) {
      it(`${lang} ${path}: says the page is for administrators, shows no admin link and asks the admin API nothing`, async () => {
        const fetch = mockFetch({
          'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
          'GET /api/reminders': () => ok([]),
        });
        renderApp(`${prefix(lang)}${path}`);
        const card = await screen.findByTestId('admins-only');
        expect(within(card).getByRole('heading', { level: 1, name: tr(lang, 'admin:adminsOnly.title') })).toBeInTheDocument();
        expect(card).toHaveTextContent(tr(lang, 'admin:forbidden'));
        expect(within(card).getByRole('link', { name: tr(lang, 'admin:adminsOnly.home') })).toHaveAttribute('href', lang === 'en' ? '/en' : '/');
        expect(adminLinks()).toEqual([]);
        expect(screen.queryByRole('link', { name: tr(lang, 'admin:users') })).toBeNull();
        expect(screen.queryByRole('link', { name: tr(lang, 'admin:testEmail.title') })).toBeNull();
        expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/api/admin'))).toBe(false);
      });
    }
  }

  it('an admin whose stored sign-in does not say so yet sees the dashboard once the session check does', async () => {
    mockFetch({
      'GET /api/auth/session': () => ok({ user: USER, is_admin: true }),
      'GET /api/admin/stats': () => ok({ users: 3 }),
      'GET /api/reminders': () => ok([]),
    });
    renderApp('/en/admin');
    expect(await screen.findByRole('link', { name: tr('en', 'admin:users') })).toHaveAttribute('href', '/en/admin/users');
    expect(screen.queryByTestId('admins-only')).toBeNull();
  });

  it('when the session cannot be checked (offline), it says so rather than that the page is for administrators', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    renderApp('/en/admin');
    const card = await screen.findByTestId('admins-only');
    expect(card).toHaveTextContent(tr('en', 'admin:adminsOnly.checkFailed'));
    expect(adminLinks()).toEqual([]);
  });
});

describe('the health panel’s troubleshooting link', () => {
  async function openHealthPanel(lang: Lang) {
    const status = tr(lang, 'health:indicatorLabel', { status: '' });
    const button = await screen.findByRole('button', { name: (name) => name.startsWith(status) });
    fireEvent.click(button);
    return screen.findByRole('region', { name: tr(lang, 'health:title') });
  }

  async function expectTroubleshootingShown(lang: Lang) {
    await waitFor(() => expect(loc()).toBe(`${prefix(lang)}/guide#troubleshooting`));
    const tab = await screen.findByRole('tab', { name: tr(lang, 'info:guide.tabs.troubleshooting') });
    await waitFor(() => expect(tab).toHaveAttribute('aria-selected', 'true'));
    // The anchor's target exists and is the troubleshooting section.
    const section = document.getElementById('troubleshooting')!;
    expect(section).not.toBeNull();
    expect(within(section).getByRole('heading', { name: tr(lang, 'info:guide.troubleshooting.title') })).toBeInTheDocument();
  }

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: from the dashboard, it opens the guide at its troubleshooting section`, async () => {
      mockFetch({ 'GET /api/reminders': () => ok([]) });
      renderApp(lang === 'en' ? '/en' : '/');
      const panel = await openHealthPanel(lang);
      const link = within(panel).getByRole('link', { name: tr(lang, 'health:troubleshooting') });
      expect(link).toHaveAttribute('href', `${prefix(lang)}/guide#troubleshooting`);
      fireEvent.click(link);
      await expectTroubleshootingShown(lang);
    });
  }

  it('ja: on the guide’s first tab, it switches to the troubleshooting section', async () => {
    mockFetch({});
    renderApp('/guide');
    const first = await screen.findByRole('tab', { name: tr('ja', 'info:guide.tabs.steps') });
    expect(first).toHaveAttribute('aria-selected', 'true');
    expect(document.getElementById('troubleshooting')).toBeNull();
    const panel = await openHealthPanel('ja');
    fireEvent.click(within(panel).getByRole('link', { name: tr('ja', 'health:troubleshooting') }));
    await expectTroubleshootingShown('ja');
  });
});
