/**
 * A verify answer without a user object (POST /api/auth/verify, /api/auth/verify-link, and the
 * developer shortcut) never signs anyone in: the code step says the spec's 'Invalid OTP
 * verification response', the link page and dev-login 'Invalid authentication response', in ja
 * and en, and nothing is stored or checked.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearToasts, getToasts } from '../../components/toast';
import { getAuthState, resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { User } from '../../lib/types';
import { json, mockFetch, ok, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { verifiedUser } from './afterSignIn';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const loc = () => screen.getByTestId('location').textContent;
const prefix = (lang: Lang) => (lang === 'ja' ? '' : '/en');

/** Answers 200 with these `data`s: no user at all, a null one, one without an id, a non-object. */
const USERLESS: unknown[] = [{ is_new_user: true }, { user: null, access_token: 't' }, { user: { email: 'taro@example.com' } }, 'ok'];

beforeEach(() => {
  clearToasts();
  localStorage.clear();
  resetAuthForTests({ status: 'signedOut' });
});

function expectSignedOut() {
  expect(getAuthState().user).toBeNull();
  expect(localStorage.getItem('auth-storage')).toBeNull();
  expect(getToasts()).toEqual([]); // no "signed in" greeting
}

describe('verifiedUser', () => {
  it('returns the user of a good answer and throws the spec error, by how the person signed in, for one without', () => {
    expect(verifiedUser({ user: USER, access_token: 't', token_type: 'Bearer', expires_in: 60, is_new_user: false }, 'code')).toBe(USER);
    for (const data of [undefined, null, ...USERLESS]) {
      expect(() => verifiedUser(data as never, 'code')).toThrow('Invalid OTP verification response');
      expect(() => verifiedUser(data as never, 'link')).toThrow('Invalid authentication response');
      expect(() => verifiedUser(data as never, 'dev')).toThrow('Invalid authentication response');
    }
  });
});

describe('a verify answer without a user', () => {
  for (const lang of ['ja', 'en'] as const) {
    for (const data of USERLESS) {
      it(`the code step (${lang}, ${JSON.stringify(data)}): 'Invalid OTP verification response', still signed out`, async () => {
        const fetch = mockFetch({
          'POST /api/auth/otp': () => ok({ expires_in: 1200, resend_after: 60 }, 202),
          'POST /api/auth/verify': () => ok(data),
          'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
        });
        renderApp(`${prefix(lang)}/login`);
        fireEvent.change(await screen.findByLabelText(tr(lang, 'auth:emailLabel')), { target: { value: 'taro@example.com' } });
        fireEvent.click(screen.getByRole('button', { name: tr(lang, 'auth:sendCode') }));
        fireEvent.paste(await screen.findByLabelText(tr(lang, 'auth:codeLabel')), { clipboardData: { getData: () => '123456' } });
        expect(await screen.findByText(tr(lang, 'auth:errors.invalidOtpResponse'))).toBeInTheDocument();
        expect(loc()).toBe(`${prefix(lang)}/login`);
        expectSignedOut();
        // no session check follows a sign-in that did not happen
        expect(fetch.mock.calls.map((c) => c[0])).not.toContain('/api/auth/session');
      });
    }

    it(`the link page (${lang}): 'Invalid authentication response', still signed out`, async () => {
      window.location.hash = '#token=abc123';
      mockFetch({
        'POST /api/auth/verify-link': (_u, init) =>
          (JSON.parse(init.body as string) as { peek?: boolean }).peek ? ok({ email: 't***@example.com' }) : ok({ is_new_user: false }),
        'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      });
      renderApp(`${prefix(lang)}/auth/callback`);
      const button = await screen.findByRole('button', { name: tr(lang, 'callback:confirm') });
      await waitFor(() => expect(button).toBeEnabled());
      fireEvent.click(button);
      expect(await screen.findByText(tr(lang, 'auth:errors.invalidAuthResponse'))).toBeInTheDocument();
      expect(loc()).toBe(`${prefix(lang)}/auth/callback`);
      expectSignedOut();
    });

    it(`the developer shortcut (${lang}): 'Invalid authentication response', still signed out`, async () => {
      const fetch = mockFetch({
        'POST /api/auth/dev-login': () => ok({ user: null }),
        'GET /api/auth/session': () => json(401, { success: false, error: { code: 'AUTHENTICATION_REQUIRED', message: 'no' } }),
      });
      renderApp(`${prefix(lang)}/login`);
      fireEvent.change(await screen.findByLabelText(tr(lang, 'auth:emailLabel')), { target: { value: 'dev@example.com' } });
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'auth:sendCode') }));
      expect(await screen.findByText(tr(lang, 'auth:errors.invalidAuthResponse'))).toBeInTheDocument();
      expect(loc()).toBe(`${prefix(lang)}/login`);
      expectSignedOut();
      // it did not go on to send a code either
      expect(fetch.mock.calls.map((c) => c[0])).not.toContain('/api/auth/otp');
    });
  }

  it('a good answer still signs in (the check is not in the way)', async () => {
    mockFetch({
      'POST /api/auth/otp': () => ok({ expires_in: 1200, resend_after: 60 }, 202),
      'POST /api/auth/verify': () => ok({ user: USER, is_new_user: false }),
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'GET /api/reminders': () => ok([]),
    });
    renderApp('/en/login');
    fireEvent.change(await screen.findByLabelText('Email address'), { target: { value: 'taro@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    fireEvent.paste(await screen.findByLabelText('6-digit code'), { clipboardData: { getData: () => '123456' } });
    await waitFor(() => expect(loc()).toBe('/en'));
    expect(getAuthState().user).toEqual(USER);
  });
});
