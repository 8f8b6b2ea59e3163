import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter } from '../../lib/router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../components/toast';
import { initI18n } from '../../i18n';
import { getAuthState, resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { User } from '../../lib/types';
import { json, mockFetch, ok, renderApp, type Handler } from '../../test/renderApp';
import { tr } from '../../test/texts';
import AuthCallbackPage from './AuthCallbackPage';

const HANAKO: User = { id: 'u2', email: 'hanako@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const TARO: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const linkInvalid = () => json(400, { success: false, error: { code: 'LINK_INVALID', message: 'bad link' } });
const loc = () => screen.getByTestId('location').textContent;

/** Suspends its first render until `release` is called: React throws away its siblings' render. */
function suspendOnce() {
  let release!: () => void;
  let done = false;
  const gate = new Promise<void>((r) => {
    release = () => {
      done = true;
      r();
    };
  });
  function Gate() {
    if (!done) throw gate;
    return null;
  }
  return { Gate, release };
}

describe('the sign-in link page', () => {
  it('a render React throws away does not lose the token (the fragment is dropped only once shown)', async () => {
    mockFetch({ 'POST /api/auth/verify-link': () => ok({ email: 'a***@example.com' }) });
    initI18n('en');
    window.history.replaceState(null, '', '/en/auth/callback#token=abc123');
    const { Gate, release } = suspendOnce();
    render(
      <MemoryRouter initialEntries={['/en/auth/callback']}>
        <Suspense fallback={<p>loading</p>}>
          <AuthCallbackPage />
          <Gate />
        </Suspense>
      </MemoryRouter>,
    );
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(window.location.hash).toBe('#token=abc123'); // the thrown-away render left it
    release();
    expect(await screen.findByRole('button', { name: 'Complete sign-in' })).toBeInTheDocument();
    // Shown: the effect that drops it from the address bar runs after the render is committed.
    await waitFor(() => expect(window.location.hash).toBe(''));
  });
});

/** The server: the peek answers `peek`, the sign-in answers HANAKO; every call is recorded in order. */
function server(peek: Handler, extra: Record<string, Handler> = {}) {
  const calls: string[] = [];
  const fetch = mockFetch({
    'POST /api/auth/verify-link': (url, init) => {
      const body = JSON.parse(init.body as string) as { token: string; peek?: boolean };
      calls.push(body.peek ? `peek ${body.token}` : `verify ${body.token}`);
      return body.peek ? peek(url, init) : ok({ user: HANAKO, is_new_user: false });
    },
    'POST /api/auth/logout': () => {
      calls.push('logout');
      return json(204, null);
    },
    'GET /api/auth/session': () => ok({ user: HANAKO, is_admin: false }),
    'GET /api/reminders': () => ok([]),
    ...extra,
  });
  return { calls, fetch };
}

const path = (lang: Lang) => (lang === 'ja' ? '/auth/callback' : '/en/auth/callback');

describe('the sign-in link page shows whose account it opens', () => {
  beforeEach(() => {
    clearToasts();
    resetAuthForTests({ status: 'signedOut' });
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: peeks on load (spending nothing) and shows the masked address; the button signs in`, async () => {
      window.history.replaceState(null, '', `${path(lang)}#token=tok1`);
      const { calls } = server(() => ok({ email: 'h***@example.com' }));
      renderApp(path(lang));
      expect(await screen.findByText(tr(lang, 'callback:signsInAs', { email: 'h***@example.com' }))).toBeInTheDocument();
      // nobody is signed in here: no word about replacing an account
      const replacing = tr(lang, 'callback:replaces', { current: '@' }).split('@')[0]!;
      expect(screen.queryByText((text) => text.includes(replacing))).toBeNull();
      expect(calls).toEqual(['peek tok1']);
      expect(window.location.hash).toBe('');
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'callback:confirm') }));
      await waitFor(() => expect(loc()).toBe(lang === 'ja' ? '/' : '/en'));
      expect(calls).toEqual(['peek tok1', 'verify tok1']);
      expect(getAuthState().user).toEqual(HANAKO);
    });

    it(`${lang}: a link the peek calls LINK_INVALID shows the invalid-link state, no button`, async () => {
      window.history.replaceState(null, '', `${path(lang)}#token=used`);
      const { calls } = server(linkInvalid);
      renderApp(path(lang));
      expect(await screen.findByRole('alert')).toHaveTextContent(tr(lang, 'auth:errors.linkInvalid'));
      expect(screen.getByRole('link', { name: tr(lang, 'callback:backToLogin') })).toHaveAttribute('href', lang === 'ja' ? '/login' : '/en/login');
      expect(screen.queryByRole('button', { name: tr(lang, 'callback:confirm') })).toBeNull();
      expect(calls).toEqual(['peek used']);
    });

    it(`${lang}: with another account signed in, it says so; continuing signs that one out first`, async () => {
      resetAuthForTests({ user: TARO, status: 'signedIn' });
      window.history.replaceState(null, '', `${path(lang)}#token=tok2`);
      const { calls } = server(() => ok({ email: 'h***@example.com' }));
      renderApp(path(lang));
      expect(await screen.findByText(tr(lang, 'callback:signsInAs', { email: 'h***@example.com' }))).toBeInTheDocument();
      expect(screen.getByText(tr(lang, 'callback:replaces', { current: 'taro@example.com' }))).toBeInTheDocument();
      // nothing happens until the person presses the button
      expect(calls).toEqual(['peek tok2']);
      expect(getAuthState().user).toEqual(TARO);
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'callback:confirm') }));
      await waitFor(() => expect(getAuthState().user).toEqual(HANAKO));
      expect(calls).toEqual(['peek tok2', 'logout', 'verify tok2']);
    });
  }

  it('without an answer from the peek (offline, older server) the button still signs in, without the address', async () => {
    window.history.replaceState(null, '', '/en/auth/callback#token=tok3');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { calls } = server(() => json(503, { success: false, error: { code: 'UNAVAILABLE', message: 'later' } }));
    renderApp('/en/auth/callback');
    const button = await screen.findByRole('button', { name: 'Complete sign-in' });
    await waitFor(() => expect(button).toBeEnabled());
    expect(screen.queryByText(/This link signs you in as/)).toBeNull();
    fireEvent.click(button);
    await waitFor(() => expect(loc()).toBe('/en'));
    expect(calls).toEqual(['peek tok3', 'verify tok3']);
  });

  it('no token: the invalid-link state, and nothing is asked', async () => {
    window.history.replaceState(null, '', '/en/auth/callback');
    const { calls } = server(() => ok({ email: 'x' }));
    renderApp('/en/auth/callback');
    expect(await screen.findByRole('alert')).toHaveTextContent(tr('en', 'auth:errors.linkInvalid'));
    expect(calls).toEqual([]);
  });
});
