// @vitest-environment node
/**
 * Translation completeness:
 * - ja and en have the same namespaces and exactly the same keys in each (a missing key fails);
 * - no value is empty, and {{placeholders}} match between languages;
 * - every literal key used by a component (t('…') with its file's useTranslation namespaces)
 *   exists, and so do the keys built from the app's enums.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOG_STATES, RECURRENCE_KINDS, WEEKDAYS } from '../lib/types';

type Tree = { [k: string]: Tree | string | Tree[] | string[] } | Tree[] | string[];

const SRC = fileURLToPath(new URL('..', import.meta.url));
const LOCALES = join(SRC, 'locales');
const load = (lang: string, ns: string) => JSON.parse(readFileSync(join(LOCALES, lang, `${ns}.json`), 'utf8')) as Tree;
const namespaces = (lang: string) => readdirSync(join(LOCALES, lang)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();

function leaves(tree: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof tree === 'string') out.set(prefix, tree);
  else if (tree && typeof tree === 'object') {
    for (const [k, v] of Object.entries(tree)) {
      for (const [kk, vv] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(kk, vv);
    }
  }
  return out;
}

function has(tree: unknown, key: string): boolean {
  let node: unknown = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return node !== undefined;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('locales', () => {
  const nsJa = namespaces('ja');
  it('ja and en have the same namespaces', () => {
    expect(nsJa.length).toBeGreaterThan(0);
    expect(namespaces('en')).toEqual(nsJa);
  });

  for (const ns of nsJa) {
    it(`${ns}: ja and en have exactly the same keys, no empty values, same placeholders`, () => {
      const ja = leaves(load('ja', ns));
      const en = leaves(load('en', ns));
      const onlyJa = [...ja.keys()].filter((k) => !en.has(k));
      const onlyEn = [...en.keys()].filter((k) => !ja.has(k));
      expect({ missingInEn: onlyJa, missingInJa: onlyEn }).toEqual({ missingInEn: [], missingInJa: [] });
      for (const [k, v] of ja) {
        expect(v.trim(), `ja ${ns}:${k} is empty`).not.toBe('');
        expect(en.get(k)!.trim(), `en ${ns}:${k} is empty`).not.toBe('');
        expect(placeholders(en.get(k)!), `placeholders of ${ns}:${k}`).toEqual(placeholders(v));
      }
    });
  }

  it('keeps the exact texts the product spec quotes', () => {
    const leaf = (lang: string, ns: string, key: string) => leaves(load(lang, ns)).get(key);
    expect(leaf('ja', 'common', 'auth.required')).toBe('認証が必要です。ログインしてください。');
    expect(leaf('ja', 'common', 'auth.checkFailed')).toBe('認証の確認に失敗しました。ログインしてください。');
    expect(leaf('ja', 'common', 'auth.requiredTitle')).toBe('認証が必要です');
    expect(leaf('ja', 'offline', 'banner')).toBe('オフラインモード');
    expect(leaf('ja', 'notifications', 'errors.authRequired')).toBe('ユーザー認証が必要です');
    expect(leaf('en', 'auth', 'errors.emailRequired')).toBe('Email is required');
    expect(leaf('en', 'auth', 'errors.emailInvalid')).toBe('Please enter a valid email address');
    // §5: the auth helper's own refusals
    expect(leaf('en', 'auth', 'errors.emailAddressRequired')).toBe('Email address is required');
    expect(leaf('en', 'auth', 'errors.emailFormat')).toBe('Invalid email format');
    // §8: a verify answer without a user
    expect(leaf('en', 'auth', 'errors.invalidOtpResponse')).toBe('Invalid OTP verification response');
    expect(leaf('en', 'auth', 'errors.invalidAuthResponse')).toBe('Invalid authentication response');
    // §8 otp_expired (the server's OTP_EXPIRED); §5's countdown notice at 0 is `expired`
    expect(leaf('en', 'auth', 'errors.otpExpired')).toBe('Verification code has expired. Please request a new one.');
    expect(leaf('en', 'auth', 'expired')).toBe('This code has expired. Please request a new one.');
    expect(leaf('en', 'auth', 'errors.otpInvalid')).toBe('Invalid verification code. Please check and try again.');
    expect(leaf('en', 'auth', 'errors.loginFailed')).toBe('Login failed. Please try again in a moment.');
    expect(leaf('en', 'auth', 'errors.resendFailed')).toBe('Failed to resend the email.');
    expect(leaf('en', 'notifications', 'enableFailed')).toBe('Failed to enable notifications');
    expect(leaf('en', 'notifications', 'unsupported')).toBe('Notifications are not supported');
    expect(leaf('en', 'notifications', 'blocked')).toBe('Notifications are blocked');
    expect(leaf('en', 'notifications', 'test.notSubscribed')).toBe('Please enable notifications first');
    expect(leaf('en', 'notifications', 'test.rateLimited')).toBe('Please wait 60 seconds between test notifications');
    expect(leaf('en', 'notifications', 'test.failed')).toBe('Failed to send test notification');
    expect(leaf('en', 'health', 'status.healthy')).toBe('All Good');
    expect(leaf('en', 'home', 'getStarted')).toBe('Get Started');
    expect(leaf('en', 'home', 'learnMore')).toBe('Learn More');
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === 'locales' || f === 'test' ? [] : sourceFiles(p);
    return /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f) ? [p] : [];
  });
}

describe('keys used in code', () => {
  const ja = Object.fromEntries(namespaces('ja').map((ns) => [ns, load('ja', ns)]));
  const exists = (ns: string, key: string) => {
    const [n, k] = key.includes(':') ? (key.split(':') as [string, string]) : [ns, key];
    // A plural key (t('x', { count })) exists as x_one / x_other.
    return has(ja[n], k) || has(ja[n], `${k}_other`);
  };

  it('every literal t() key exists in one of its file’s namespaces', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const file of sourceFiles(SRC)) {
      const text = readFileSync(file, 'utf8');
      const nss = new Set<string>();
      for (const m of text.matchAll(/useTranslation\(\s*(?:'([\w-]+)')?\s*\)/g)) nss.add(m[1] ?? 'common');
      if (nss.size === 0) continue;
      for (const m of text.matchAll(/\b(?:t|th)\(\s*'([^']+)'/g)) {
        const key = m[1]!;
        checked++;
        if (![...nss].some((ns) => exists(ns, key))) missing.push(`${relative(SRC, file)}: ${key} (namespaces ${[...nss].join(', ')})`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });

  it('error keys returned by logic modules exist', () => {
    const files: [string, string][] = [
      ['features/reminders/reminderLogic.ts', 'reminders'],
      ['lib/email.ts', 'auth'],
      ['features/auth/authErrors.ts', 'auth'],
    ];
    for (const [file, ns] of files) {
      const keys = [...readFileSync(join(SRC, file), 'utf8').matchAll(/'(errors\.\w+)'/g)].map((m) => m[1]!);
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) expect(exists(ns, k), `${ns}:${k}`).toBe(true);
    }
  });

  it('keys built from enums exist', () => {
    for (const k of RECURRENCE_KINDS) expect(exists('reminders', `recurrence.${k}`)).toBe(true);
    for (const d of WEEKDAYS) expect(exists('reminders', `weekdays.${d}`)).toBe(true);
    for (const s of ['checking', 'healthy', 'warning', 'error']) expect(exists('health', `status.${s}`)).toBe(true);
    for (const c of ['notifications', 'serviceWorker', 'connection']) {
      expect(exists('health', `checks.${c}`)).toBe(true);
      for (const s of ['warning', 'error']) expect(exists('health', `advice.${c}.${s}`)).toBe(true);
    }
    for (const c of ['unsupported', 'blocked', 'serviceWorker', 'config', 'network', 'authRequired']) {
      expect(exists('notifications', `errors.${c}`)).toBe(true);
    }
    for (const f of ['audio', 'schedule', 'interactive']) {
      expect(exists('home', `features.${f}.title`) && exists('home', `features.${f}.text`)).toBe(true);
    }
    for (const tab of ['active', 'completed']) expect(exists('reminders', `tabs.${tab}`)).toBe(true);
    expect(exists('health', 'advice.notifications.lost')).toBe(true);
    for (const s of LOG_STATES) expect(exists('reminders', `details.state.${s}`)).toBe(true);
    for (const c of ['support', 'cookies', 'storage', 'privateMode', 'privacyBrowser']) {
      expect(exists('info', `guide.browser.checks.${c}`) && exists('info', `guide.browser.advice.${c}`)).toBe(true);
    }
    for (const tab of ['steps', 'troubleshooting', 'diagnostics', 'platforms']) expect(exists('info', `guide.tabs.${tab}`)).toBe(true);
    for (const s of ['install', 'signIn', 'enable', 'test', 'create']) expect(exists('info', `guide.steps.${s}.title`)).toBe(true);
    for (const d of ['privacy', 'terms', 'commercial']) expect(exists('info', `${d}.sections`)).toBe(true);
  });
});
