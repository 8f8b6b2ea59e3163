/**
 * What the login page says when sending or checking fails, in ja and en (product spec section 8):
 * the email send limit (429 RATE_LIMITED; a short Retry-After says how long to wait), a network
 * error, a timeout (the client's 10 s), a resend that fails ('Failed to resend the email.'),
 * and too many wrong codes (429 OTP_ATTEMPTS_EXCEEDED). Never the server's English.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../components/toast';
import { DEFAULT_TIMEOUT_MS } from '../../lib/api';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import { json, mockFetch, ok, renderApp, type Handler } from '../../test/renderApp';
import { tr } from '../../test/texts';

const SENT = () => ok({ expires_in: 1200, resend_after: 60 }, 202);
const rateLimited = (retryAfter?: number) => () =>
  json(429, { success: false, error: { code: 'RATE_LIMITED', message: 'Too many requests', ...(retryAfter ? { retry_after: retryAfter } : {}) } });
const networkDown = () => Promise.reject(new TypeError('Failed to fetch'));
const serverError = () => json(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } });
/** Never answers; gives up when the client aborts it (its 10 s timeout). */
const hangs: Handler = (_u, init) => new Promise<Response>((_, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

const path = (lang: Lang) => (lang === 'ja' ? '/login' : '/en/login');
const alertText = () => screen.getByRole('alert').textContent;

beforeEach(() => {
  clearToasts();
  resetAuthForTests({ status: 'signedOut' });
  vi.spyOn(console, 'warn').mockImplementation(() => {}); // the client logs 429 and 5xx answers
});
afterEach(() => vi.useRealTimers());

async function sendCode(lang: Lang) {
  fireEvent.change(await screen.findByLabelText(tr(lang, 'auth:emailLabel')), { target: { value: 'taro@example.com' } });
  fireEvent.click(screen.getByRole('button', { name: tr(lang, 'auth:sendCode') }));
}

describe('sending the code fails', () => {
  const CASES: { name: string; answer: Handler; text: (lang: Lang) => string }[] = [
    { name: '429: the email send limit (3 per hour)', answer: rateLimited(), text: (l) => tr(l, 'auth:errors.rateLimited') },
    { name: '429 with Retry-After 42 s: how long to wait', answer: rateLimited(42), text: (l) => tr(l, 'auth:errors.retryAfter', { seconds: 42 }) },
    { name: 'a network error', answer: networkDown, text: (l) => tr(l, 'auth:errors.network') },
    { name: 'a server error', answer: serverError, text: (l) => tr(l, 'auth:errors.loginFailed') },
  ];
  for (const lang of ['ja', 'en'] as const) {
    for (const c of CASES) {
      it(`${lang}: ${c.name}`, async () => {
        mockFetch({ 'POST /api/auth/otp': c.answer });
        renderApp(path(lang));
        await sendCode(lang);
        await waitFor(() => expect(alertText()).toBe(c.text(lang)));
        // still on the email step, ready to try again
        expect(screen.getByRole('button', { name: tr(lang, 'auth:sendCode') })).toBeEnabled();
      });
    }

    it(`${lang}: no answer within 10 s: the timeout text (not before)`, async () => {
      mockFetch({ 'POST /api/auth/otp': hangs });
      renderApp(path(lang));
      await screen.findByLabelText(tr(lang, 'auth:emailLabel'));
      // (no findBy/waitFor while the clock is fake: they wait on setTimeout themselves)
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      fireEvent.change(screen.getByLabelText(tr(lang, 'auth:emailLabel')), { target: { value: 'taro@example.com' } });
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'auth:sendCode') }));
      await act(() => vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS - 1));
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByRole('button', { name: tr(lang, 'auth:sending') })).toBeDisabled();
      await act(() => vi.advanceTimersByTimeAsync(1));
      vi.useRealTimers();
      await waitFor(() => expect(alertText()).toBe(tr(lang, 'auth:errors.timeout')));
    });
  }
});

describe('on the code step', () => {
  /** Sends the code, then waits out the 60 s resend cooldown. */
  async function codeStep(lang: Lang, routes: Record<string, Handler>) {
    let sends = 0;
    const resend = routes['POST /api/auth/otp'];
    mockFetch({ ...routes, 'POST /api/auth/otp': (u, i) => (++sends === 1 || !resend ? SENT() : resend(u, i)) });
    renderApp(path(lang));
    await sendCode(lang);
    const code = await screen.findByLabelText(tr(lang, 'auth:codeLabel'));
    return { code, sends: () => sends };
  }

  const RESEND: { name: string; answer: Handler; text: (lang: Lang) => string }[] = [
    { name: 'a resend the server refuses (500): "Failed to resend the email."', answer: serverError, text: (l) => tr(l, 'auth:errors.resendFailed') },
    { name: 'a resend past the send limit (429)', answer: rateLimited(), text: (l) => tr(l, 'auth:errors.rateLimited') },
    { name: 'a resend without a connection', answer: networkDown, text: (l) => tr(l, 'auth:errors.network') },
  ];
  for (const lang of ['ja', 'en'] as const) {
    for (const c of RESEND) {
      it(`${lang}: ${c.name}`, async () => {
        const { code, sends } = await codeStep(lang, { 'POST /api/auth/otp': c.answer });
        fireEvent.change(code, { target: { value: '12' } });
        const later = Date.now() + 61_000;
        vi.spyOn(Date, 'now').mockReturnValue(later);
        fireEvent.click(await screen.findByRole('button', { name: tr(lang, 'auth:resend') }));
        await waitFor(() => expect(alertText()).toBe(c.text(lang)));
        expect(sends()).toBe(2);
        // the code typed so far and the countdown stay: the old code still works
        expect(code).toHaveValue('12');
        expect(screen.getByRole('button', { name: tr(lang, 'auth:resend') })).toBeEnabled();
      });
    }

    it(`${lang}: checking the code without a connection, or after too many wrong codes (429)`, async () => {
      let answer: Handler = networkDown;
      const { code } = await codeStep(lang, { 'POST /api/auth/verify': (u, i) => answer(u, i) });
      // six digits at once (a paste, autofill) check themselves
      fireEvent.change(code, { target: { value: '123456' } });
      await waitFor(() => expect(alertText()).toBe(tr(lang, 'auth:errors.network')));
      answer = () => json(429, { success: false, error: { code: 'OTP_ATTEMPTS_EXCEEDED', message: 'burned' } });
      fireEvent.change(code, { target: { value: '654321' } });
      await waitFor(() => expect(alertText()).toBe(tr(lang, 'auth:errors.otpAttempts')));
    });

    it(`${lang}: a code that a resend replaced (OTP_REPLACED) says to use the newest email`, async () => {
      const { code } = await codeStep(lang, { 'POST /api/auth/verify': () => json(400, { success: false, error: { code: 'OTP_REPLACED', message: 'replaced' } }) });
      fireEvent.change(code, { target: { value: '123456' } });
      await waitFor(() => expect(alertText()).toBe(tr(lang, 'errors:code.OTP_REPLACED')));
    });
  }
});

describe('code sign-in paused for the address (the send answer says code_sign_in: false)', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: the code step says to use the link instead, with the answer's own lifetimes`, async () => {
      mockFetch({ 'POST /api/auth/otp': () => ok({ expires_in: 600, resend_after: 30, code_sign_in: false }, 202) });
      renderApp(path(lang));
      await sendCode(lang);
      await screen.findByLabelText(tr(lang, 'auth:codeLabel'));
      expect(screen.getByRole('alert')).toHaveTextContent(tr(lang, 'auth:codePaused'));
      expect(screen.queryByText(tr(lang, 'auth:linkHint'))).toBeNull();
      expect(screen.getByText(tr(lang, 'auth:expiresIn', { time: '10:00' }))).toBeInTheDocument();
      expect(screen.getByRole('button', { name: new RegExp(tr(lang, 'auth:resendIn', { seconds: 30 })) })).toBeDisabled();
    });
  }
});
