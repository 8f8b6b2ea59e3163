// @vitest-environment node
/**
 * Translation completeness:
 * - ja and en have the same namespaces and exactly the same keys in each (a missing key fails);
 * - no value is empty, and {{placeholders}} match between languages;
 * - every literal key used by a component exists where i18next looks for it, in ja and en:
 *   `ns:key` in ns, a plain key in the first namespace of its t (useTranslation('ns'),
 *   useTranslation(['a', 'b']) with or without options, `.t`, getFixedT), never in the later
 *   ones; a useTranslation call the check cannot read fails it rather than being skipped;
 * - and so do the keys built from the app's enums.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LIST_COLOURS, LOG_STATES, RECURRENCE_KINDS, WEEKDAYS } from '../lib/types';

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
    // "All Good" is a status, in the sentence case every other status uses (the issue names
    // its capitals); the spec names the home page's buttons "Get Started" and "Learn More".
    expect(leaf('en', 'health', 'status.healthy')).toBe('All good');
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

/** A `useTranslation(…)` / `getFixedT(lng, …)` namespace argument: none (the default, common), 'ns' or ['a', 'b']. */
const NS_ARG = String.raw`(?:'([\w-]+)'|\[([^\]]*)\])?`;
const OPTIONS = String.raw`(?:\s*,\s*\{[^}]*\})?`;

function namespaceList(single: string | undefined, list: string | undefined): string[] {
  if (single) return [single];
  if (list !== undefined) return [...list.matchAll(/'([\w-]+)'/g)].map((m) => m[1]!);
  return ['common']; // defaultNS
}

/** Comments out of the way (a doc comment may quote a call). */
const stripComments = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/\s\/\/\s.*$/gm, '');

interface Binding {
  /** the name the t function goes by in the file */
  alias: string;
  namespaces: string[];
  at: number;
}

/**
 * The t functions a file binds, each with its namespaces, and the `useTranslation(` calls it
 * could not read (a form this test does not know would leave keys unchecked: it fails instead).
 */
function bindingsOf(source: string): { bindings: Binding[]; unread: string[] } {
  const text = stripComments(source);
  const bindings: Binding[] = [];
  const read = new Set<number>();
  // const { t } / { t, i18n } / { t: th, ready } = useTranslation(ns?, options?)
  for (const m of text.matchAll(new RegExp(String.raw`const\s*\{([^}]*)\}\s*=\s*useTranslation\(\s*${NS_ARG}${OPTIONS}\s*\)`, 'g'))) {
    read.add(m.index + m[0].indexOf('useTranslation('));
    const t = m[1]!.match(/(?:^|,)\s*t\s*(?::\s*(\w+))?\s*(?:,|$)/);
    if (t) bindings.push({ alias: t[1] ?? 't', namespaces: namespaceList(m[2], m[3]), at: m.index });
  }
  // const th = useTranslation(ns).t
  for (const m of text.matchAll(new RegExp(String.raw`const\s+(\w+)\s*=\s*useTranslation\(\s*${NS_ARG}${OPTIONS}\s*\)\.t\b`, 'g'))) {
    read.add(m.index + m[0].indexOf('useTranslation('));
    bindings.push({ alias: m[1]!, namespaces: namespaceList(m[2], m[3]), at: m.index });
  }
  // useTranslation(ns); as a statement: it only loads the namespace
  for (const m of text.matchAll(new RegExp(String.raw`(?:^|[;{}])\s*(useTranslation\(\s*${NS_ARG}${OPTIONS}\s*\);)`, 'gm'))) {
    read.add(m.index + m[0].indexOf('useTranslation('));
  }
  // const tl = i18n.getFixedT(lng, ns)
  for (const m of text.matchAll(new RegExp(String.raw`const\s+(\w+)\s*=\s*[\w.]+\.getFixedT\(\s*[^,()]+,\s*${NS_ARG}\s*\)`, 'g'))) {
    bindings.push({ alias: m[1]!, namespaces: namespaceList(m[2], m[3]), at: m.index });
  }
  const unread = [...text.matchAll(/useTranslation\(/g)].filter((m) => !read.has(m.index)).map((m) => text.slice(m.index, m.index + 60));
  return { bindings, unread };
}

/**
 * The literal keys a file's t functions are called with, each with the namespaces of its t: the
 * nearest binding of that name above the call (the component it is in), else the first below
 * (a helper above the component, called with its t).
 */
function keysOf(source: string): { key: string; namespaces: string[] }[] {
  const text = stripComments(source);
  const { bindings } = bindingsOf(source);
  const out: { key: string; namespaces: string[] }[] = [];
  for (const alias of new Set(bindings.map((b) => b.alias))) {
    const own = bindings.filter((b) => b.alias === alias).sort((a, b) => a.at - b.at);
    for (const m of text.matchAll(new RegExp(String.raw`(?<![\w$.])${alias}\(\s*(['"])([^'"\n]+)\1`, 'g'))) {
      const binding = [...own].reverse().find((b) => b.at < m.index) ?? own[0]!;
      out.push({ key: m[2]!, namespaces: binding.namespaces });
    }
  }
  return out;
}

describe('keys used in code', () => {
  const dicts = Object.fromEntries((['ja', 'en'] as const).map((lang) => [lang, Object.fromEntries(namespaces(lang).map((ns) => [ns, load(lang, ns)]))]));
  /** In ns (or `other:` given in the key), in `lang`; a plural key (t('x', { count })) exists as x_one / x_other. */
  const existsIn = (lang: 'ja' | 'en', ns: string, key: string) => {
    const [n, k] = key.includes(':') ? (key.split(':') as [string, string]) : [ns, key];
    const tree = dicts[lang]![n];
    return tree !== undefined && (has(tree, k) || has(tree, `${k}_other`));
  };
  const exists = (ns: string, key: string) => existsIn('ja', ns, key);
  /**
   * Where i18next looks (react-i18next's default nsMode): `ns:key` in ns; a plain key in the
   * first of the t function's namespaces only, never in the later ones.
   */
  const missingFrom = (namespacesOfT: string[], key: string) =>
    (['ja', 'en'] as const).filter((lang) => !existsIn(lang, namespacesOfT[0]!, key));

  it('every literal t() key exists where i18next looks for it, in ja and in en', () => {
    const missing: string[] = [];
    const unread: string[] = [];
    let checked = 0;
    let severalNamespaces = 0;
    for (const file of sourceFiles(SRC)) {
      const source = readFileSync(file, 'utf8');
      const found = bindingsOf(source);
      unread.push(...found.unread.map((u) => `${relative(SRC, file)}: ${u}`));
      for (const { key, namespaces: nss } of keysOf(source)) {
        checked++;
        if (nss.length > 1) severalNamespaces++;
        const langs = missingFrom(nss, key);
        if (langs.length > 0) missing.push(`${relative(SRC, file)}: ${key} (namespaces ${nss.join(', ')}; missing in ${langs.join(', ')})`);
      }
    }
    expect(unread).toEqual([]);
    expect(checked).toBeGreaterThan(400);
    // the files that call useTranslation(['reminders', 'errors']) and the like are checked too
    expect(severalNamespaces).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('reads every form of binding, and resolves keys as i18next does', () => {
    const source = `
      /** useTranslation(['x', 'y']) in a comment is not a call */
      function A() {
        const { t } = useTranslation(['reminders', 'errors']);
        return t('title') + t('errors:code.NOT_FOUND') + t("dialog.save");
      }
      function B() {
        const { t: th, ready } = useTranslation('health', { useSuspense: false });
        const tc = useTranslation().t;
        useTranslation('errors'); // loads it
        return th('status.healthy') + t('nav.signIn') + tc('nav.signIn');
      }
      const tl = i18n.getFixedT(lang, 'common');
      tl('auth.required');
    `;
    expect(bindingsOf(source).unread).toEqual([]);
    const keys = keysOf(source);
    expect(keys).toEqual(
      expect.arrayContaining([
        { key: 'title', namespaces: ['reminders', 'errors'] },
        { key: 'errors:code.NOT_FOUND', namespaces: ['reminders', 'errors'] },
        { key: 'dialog.save', namespaces: ['reminders', 'errors'] },
        { key: 'status.healthy', namespaces: ['health'] },
        // t in B is A's: the nearest binding above
        { key: 'nav.signIn', namespaces: ['reminders', 'errors'] },
        { key: 'nav.signIn', namespaces: ['common'] },
        { key: 'auth.required', namespaces: ['common'] },
      ]),
    );
    expect(keys).toHaveLength(7);
    expect(missingFrom(['reminders', 'errors'], 'title')).toEqual([]);
    expect(missingFrom(['reminders', 'errors'], 'errors:code.NOT_FOUND')).toEqual([]);
    // a key of the second namespace without its prefix: i18next does not find it
    expect(missingFrom(['reminders', 'errors'], 'code.NOT_FOUND')).toEqual(['ja', 'en']);
    expect(missingFrom(['reminders', 'errors'], 'noSuchKey.anywhere')).toEqual(['ja', 'en']);
    expect(missingFrom(['reminders'], 'nosuchns:title')).toEqual(['ja', 'en']);
    // a call form it cannot read fails the check rather than skipping the file
    expect(bindingsOf('const x = useTranslation(someNamespaces);').unread).toHaveLength(1);
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
    for (const c of LIST_COLOURS) expect(exists('lists', `colours.${c}`)).toBe(true);
    for (const s of ['checking', 'healthy', 'warning', 'error']) expect(exists('health', `status.${s}`)).toBe(true);
    for (const c of ['notifications', 'serviceWorker', 'connection']) {
      expect(exists('health', `checks.${c}`)).toBe(true);
      for (const s of ['warning', 'error']) expect(exists('health', `advice.${c}.${s}`)).toBe(true);
    }
    for (const c of ['unsupported', 'blocked', 'serviceWorker', 'pushService', 'timeout', 'config', 'network', 'authRequired', 'failed']) {
      expect(exists('notifications', `errors.${c}`)).toBe(true);
    }
    for (const c of ['serviceWorker', 'config', 'network', 'authRequired', 'failed']) expect(exists('notifications', `next.${c}`)).toBe(true);
    for (const f of ['audio', 'schedule', 'interactive']) {
      expect(exists('home', `features.${f}.title`) && exists('home', `features.${f}.text`)).toBe(true);
    }
    for (const tab of ['active', 'completed']) expect(exists('reminders', `tabs.${tab}`)).toBe(true);
    for (const s of ['checking', 'neverSetUp', 'receiving', 'stopped', 'blocked', 'unsupported']) {
      expect(exists('device', `state.${s}.label`) && exists('device', `state.${s}.summary`)).toBe(true);
    }
    for (const f of ['chrome', 'brave', 'edge', 'firefox', 'safari', 'other']) {
      expect(exists('device', `fix.unblock.${f}`) && exists('notifications', `next.pushService.${f}`)).toBe(true);
    }
    for (const s of LOG_STATES) expect(exists('reminders', `details.state.${s}`)).toBe(true);
    for (const c of ['support', 'cookies', 'storage', 'privateMode', 'privacyBrowser']) {
      expect(exists('info', `guide.browser.checks.${c}`) && exists('info', `guide.browser.advice.${c}`)).toBe(true);
    }
    for (const tab of ['steps', 'troubleshooting', 'diagnostics', 'platforms']) expect(exists('info', `guide.tabs.${tab}`)).toBe(true);
    for (const s of ['install', 'signIn', 'enable', 'test', 'create']) expect(exists('info', `guide.steps.${s}.title`)).toBe(true);
    for (const k of ['invite', 'join', 'who', 'turns', 'done', 'snooze', 'leave']) expect(exists('info', `guide.sharing.topics.${k}.title`) && exists('info', `guide.sharing.topics.${k}.text`)).toBe(true);
    for (const d of ['privacy', 'terms', 'commercial']) expect(exists('info', `${d}.sections`)).toBe(true);
  });
});
