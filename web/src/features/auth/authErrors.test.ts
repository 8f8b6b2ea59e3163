// @vitest-environment node
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import en from '../../locales/en/auth.json';
import ja from '../../locales/ja/auth.json';
import { authErrorKey } from './authErrors';

async function text(lang: 'ja' | 'en', e: unknown): Promise<string> {
  const i18n = createInstance();
  await i18n.init({ lng: lang, resources: { [lang]: { auth: lang === 'ja' ? ja : en } }, defaultNS: 'auth', interpolation: { escapeValue: false } });
  const { key, params } = authErrorKey(e, 'errors.loginFailed');
  return i18n.t(key, params);
}

describe('auth errors', () => {
  it("OTP_EXPIRED reads as the spec's otp_expired text (product-spec §8), in both languages", async () => {
    const expired = new ApiError('Verification code has expired. Please request a new one.', { status: 400, code: 'OTP_EXPIRED' });
    expect(await text('en', expired)).toBe('Verification code has expired. Please request a new one.');
    expect(await text('ja', expired)).toBe('確認コードの有効期限が切れました。新しいコードをリクエストしてください。');
  });

  it("the auth helper's refusals of an address read as its own messages, in both languages", async () => {
    const required = new ApiError('Email address is required', { status: 0, code: 'EMAIL_REQUIRED' });
    const format = new ApiError('Invalid email format', { status: 0, code: 'EMAIL_FORMAT' });
    expect(await text('en', required)).toBe('Email address is required');
    expect(await text('ja', required)).toBe('メールアドレスが必要です');
    expect(await text('en', format)).toBe('Invalid email format');
    expect(await text('ja', format)).toBe('メールアドレスの形式が正しくありません');
  });

  it('the countdown reaching 0 keeps its own notice (§5), apart from the server answer', () => {
    expect(en.expired).toBe('This code has expired. Please request a new one.');
  });

  it('an unknown code and a non-API error read the login failure text, never the server English', async () => {
    expect(await text('ja', new ApiError('only the developer addresses …', { status: 400, code: 'VALIDATION_FAILED' }))).toBe(
      'ログインに失敗しました。しばらくしてから再度お試しください。',
    );
    expect(await text('en', new Error('boom'))).toBe('Login failed. Please try again in a moment.');
  });
});
