/**
 * /settings/delete-account: deleting is possible only once the confirm field holds the user's
 * own address (case and surrounding spaces aside); success signs out and leaves for the home
 * page; a failure says so and keeps the person signed in on the page.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../components/toast';
import { getAuthState, resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { User } from '../../lib/types';
import { json, mockFetch, ok, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';

const USER: User = { id: 'u1', email: 'Taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const loc = () => screen.getByTestId('location').textContent;
const prefix = (lang: Lang) => (lang === 'en' ? '/en' : '');
const toasts = () => [...document.querySelectorAll('.toaster [role]')].map((t) => t.querySelector('span')?.textContent);

// On a busy machine a lazy page's first transform alone can outlast what a findBy waits for.
beforeAll(preloadApp, 120_000);

beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
  localStorage.setItem('auth-storage', JSON.stringify({ user: USER }));
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

function serverRoutes(deleteAnswer: () => Response | Promise<Response>) {
  const deletes: unknown[] = [];
  const fetch = mockFetch({
    'DELETE /api/account': (_u, init) => {
      deletes.push(JSON.parse(init.body as string));
      return deleteAnswer();
    },
    'POST /api/auth/logout': () => json(204, null),
    'GET /api/reminders': () => ok([]),
  });
  return { fetch, deletes };
}

async function openPage(lang: Lang) {
  renderApp(`${prefix(lang)}/settings/delete-account`);
  const field = await screen.findByLabelText(tr(lang, 'settings:delete.confirmLabel', { email: USER.email }));
  const button = screen.getByRole('button', { name: tr(lang, 'settings:delete.submit') });
  return { field, button };
}

describe('delete account', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: enabled only when the confirm field is the user's own address`, async () => {
      const server = serverRoutes(() => json(204, null));
      const { field, button } = await openPage(lang);
      expect(screen.getByRole('heading', { level: 1, name: tr(lang, 'settings:delete.title') })).toBeInTheDocument();
      expect(button).toBeDisabled();
      for (const wrong of ['taro@example.co', 'jiro@example.com', 'taro']) {
        fireEvent.change(field, { target: { value: wrong } });
        expect(button).toBeDisabled();
      }
      // Enter with a wrong address sends nothing either.
      fireEvent.submit(field.closest('form')!);
      expect(server.deletes).toEqual([]);
      fireEvent.change(field, { target: { value: '  taro@EXAMPLE.com ' } });
      expect(button).toBeEnabled();
    });

    it(`${lang}: success deletes with the address, signs out and leaves for the home page`, async () => {
      const server = serverRoutes(() => json(204, null));
      const { field, button } = await openPage(lang);
      fireEvent.change(field, { target: { value: USER.email } });
      fireEvent.click(button);
      await waitFor(() => expect(loc()).toBe(lang === 'en' ? '/en' : '/'));
      expect(server.deletes).toEqual([{ confirm: USER.email }]);
      expect(server.fetch.mock.calls.some(([u]) => u === '/api/auth/logout')).toBe(true);
      expect(getAuthState().user).toBeNull();
      expect(localStorage.getItem('auth-storage')).toBeNull();
      expect(toasts()).toContain(tr(lang, 'settings:delete.done'));
      // The signed-out home page, not the account page.
      expect(await screen.findByRole('link', { name: tr(lang, 'home:getStarted') })).toBeInTheDocument();
    });

    it(`${lang}: a failure says so, and the person stays signed in on the page`, async () => {
      serverRoutes(() => json(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } }));
      const { field, button } = await openPage(lang);
      fireEvent.change(field, { target: { value: USER.email } });
      fireEvent.click(button);
      await waitFor(() => expect(toasts()).toEqual([tr(lang, 'settings:delete.failed')]));
      expect(loc()).toBe(`${prefix(lang)}/settings/delete-account`);
      expect(getAuthState().user).toEqual(USER);
      await waitFor(() => expect(button).toBeEnabled());
    });
  }

  // Issue #11: "account deletion ends with a red 認証が必要です" (signing out on a protected page
  // made its guard toast "sign-in required" before the redirect home).
  it('ja: deleting ends with the "deleted" toast alone, not "sign-in required"', async () => {
    serverRoutes(() => json(204, null));
    const { field, button } = await openPage('ja');
    fireEvent.change(field, { target: { value: USER.email } });
    fireEvent.click(button);
    await waitFor(() => expect(loc()).toBe('/'));
    await waitFor(() => expect(toasts()).toContain(tr('ja', 'settings:delete.done')));
    expect(toasts()).toEqual([tr('ja', 'settings:delete.done')]);
  });
});
