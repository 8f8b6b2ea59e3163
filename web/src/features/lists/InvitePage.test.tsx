/**
 * The invitation page (`/invite#token=…`): it peeks on load (spending nothing) and shows the
 * list, who invites and the address it is for; signed in, Join accepts and opens the list;
 * signed in as another address, it names the address to sign in with; signed out, it sends the
 * person to sign in and keeps the token for the way back; an invalid link says so.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearToasts, getToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { User } from '../../lib/types';
import { LISTS } from '../../test/listsFixtures';
import { json, mockFetch, ok, renderApp, type Handler } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { INVITE_TOKEN_KEY } from './InvitePage';

const HANAKO: User = { id: 'u2', email: 'hanako@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const PEEK = { list_name: 'ゴミ出し', inviter: 't***@example.com', email: 'h***@example.com' };
const SHARED = { ...LISTS[1]!, id: 'l-shared', name: 'ゴミ出し', role: 'member' as const, members: 2 };
const loc = () => screen.getByTestId('location').textContent;
const path = (lang: Lang) => (lang === 'ja' ? '/invite' : '/en/invite');
const fail = (status: number, code: string) => json(status, { success: false, error: { code, message: 'server English' } });

function server(accept: Handler = () => ok(SHARED), peek: Handler = () => ok(PEEK)) {
  const calls: string[] = [];
  mockFetch({
    'POST /api/invites/peek': (u, init) => {
      calls.push(`peek ${(JSON.parse(String(init.body)) as { token: string }).token}`);
      return peek(u, init);
    },
    'POST /api/invites/accept': (u, init) => {
      calls.push(`accept ${(JSON.parse(String(init.body)) as { token: string }).token}`);
      return accept(u, init);
    },
    'GET /api/auth/session': () => ok({ user: HANAKO, is_admin: false }),
    'GET /api/lists': () => ok([LISTS[0]!, SHARED]),
    'GET /api/reminders': () => ok([]),
    'POST /api/auth/logout': () => json(204, null),
  });
  return calls;
}

describe('the invitation page', () => {
  beforeEach(() => {
    clearToasts();
    sessionStorage.clear();
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: signed in, it shows the invitation, and Join accepts it and opens the list`, async () => {
      resetAuthForTests({ user: HANAKO, status: 'signedIn' });
      window.history.replaceState(null, '', `${path(lang)}#token=tok1`);
      const calls = server();
      renderApp(path(lang));
      expect(await screen.findByText(tr(lang, 'lists:invite.text', { inviter: 't***@example.com', list: 'ゴミ出し' }))).toBeInTheDocument();
      expect(screen.getByText(tr(lang, 'lists:invite.forAddress', { email: 'h***@example.com' }))).toBeInTheDocument();
      expect(window.location.hash).toBe('');
      expect(calls).toEqual(['peek tok1']);
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'lists:invite.accept') }));
      await waitFor(() => expect(loc()).toBe(`${lang === 'ja' ? '' : '/en'}/reminders?list=l-shared`));
      expect(calls).toEqual(['peek tok1', 'accept tok1']);
      expect(getToasts().map((t) => t.message)).toContain(tr(lang, 'lists:invite.joined', { name: 'ゴミ出し' }));
      expect(sessionStorage.getItem(INVITE_TOKEN_KEY)).toBeNull();
    });

    it(`${lang}: signed in as another address, it names the address to sign in with`, async () => {
      resetAuthForTests({ user: HANAKO, status: 'signedIn' });
      window.history.replaceState(null, '', `${path(lang)}#token=tok2`);
      server(() => fail(403, 'INVITE_WRONG_ACCOUNT'));
      renderApp(path(lang));
      fireEvent.click(await screen.findByRole('button', { name: tr(lang, 'lists:invite.accept') }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        tr(lang, 'lists:invite.wrongAccount', { email: 'h***@example.com', current: 'hanako@example.com' }),
      );
      const card = document.querySelector<HTMLElement>('.auth-card')!;
      expect(within(card).getByRole('button', { name: tr(lang, 'lists:invite.signOut') })).toBeInTheDocument();
      expect(loc()).toBe(path(lang));
    });

    it(`${lang}: signed out, it sends the person to sign in and keeps the token for the way back`, async () => {
      resetAuthForTests({ status: 'signedOut' });
      window.history.replaceState(null, '', `${path(lang)}#token=tok3`);
      const calls = server();
      renderApp(path(lang));
      fireEvent.click(await screen.findByRole('button', { name: tr(lang, 'lists:invite.signIn') }));
      await waitFor(() => expect(loc()).toBe(lang === 'ja' ? '/login' : '/en/login'));
      expect(sessionStorage.getItem(INVITE_TOKEN_KEY)).toBe('tok3');
      expect(calls).toEqual(['peek tok3']);
    });

    it(`${lang}: an invitation the peek calls INVITE_INVALID says so, with no button to join`, async () => {
      resetAuthForTests({ user: HANAKO, status: 'signedIn' });
      window.history.replaceState(null, '', `${path(lang)}#token=old`);
      server(undefined, () => fail(400, 'INVITE_INVALID'));
      renderApp(path(lang));
      expect(await screen.findByRole('alert')).toHaveTextContent(tr(lang, 'lists:invite.invalid'));
      expect(screen.queryByRole('button', { name: tr(lang, 'lists:invite.accept') })).toBeNull();
    });
  }

  it('en: back from signing in (no fragment), the kept token is read and accepted', async () => {
    sessionStorage.setItem(INVITE_TOKEN_KEY, 'kept');
    resetAuthForTests({ user: HANAKO, status: 'signedIn' });
    window.history.replaceState(null, '', '/en/invite');
    const calls = server();
    renderApp('/en/invite');
    fireEvent.click(await screen.findByRole('button', { name: tr('en', 'lists:invite.accept') }));
    await waitFor(() => expect(calls).toEqual(['peek kept', 'accept kept']));
  });
});
