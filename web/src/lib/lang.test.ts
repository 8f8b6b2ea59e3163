import { describe, expect, it } from 'vitest';
import {
  browserLang,
  initialLanguageRedirect,
  isEnPath,
  langFromPath,
  pathForLang,
  readSavedLang,
  saveLang,
  stripLangPrefix,
  LANG_STORAGE_KEY,
} from './lang';

describe('langFromPath', () => {
  it('is en for /en and /en/…, ja otherwise', () => {
    expect(langFromPath('/en')).toBe('en');
    expect(langFromPath('/en/')).toBe('en');
    expect(langFromPath('/en/reminders')).toBe('en');
    expect(langFromPath('/')).toBe('ja');
    expect(langFromPath('/reminders')).toBe('ja');
    expect(langFromPath('/entry')).toBe('ja');
    expect(langFromPath('/english/x')).toBe('ja');
    expect(isEnPath('/EN/reminders')).toBe(false);
  });
});

describe('stripLangPrefix', () => {
  it('removes only the /en prefix', () => {
    expect(stripLangPrefix('/en')).toBe('/');
    expect(stripLangPrefix('/en/')).toBe('/');
    expect(stripLangPrefix('/en/settings/delete-account')).toBe('/settings/delete-account');
    expect(stripLangPrefix('/entry')).toBe('/entry');
    expect(stripLangPrefix('')).toBe('/');
  });
});

describe('pathForLang', () => {
  it('adds the /en prefix for en', () => {
    expect(pathForLang('/', 'en')).toBe('/en');
    expect(pathForLang('/reminders', 'en')).toBe('/en/reminders');
    expect(pathForLang('/en/reminders', 'en')).toBe('/en/reminders');
    expect(pathForLang('/guide#troubleshooting', 'en')).toBe('/en/guide#troubleshooting');
    expect(pathForLang('/?a=1', 'en')).toBe('/en?a=1');
    expect(pathForLang('/entry', 'en')).toBe('/en/entry');
  });
  it('removes the /en prefix for ja', () => {
    expect(pathForLang('/en', 'ja')).toBe('/');
    expect(pathForLang('/en/', 'ja')).toBe('/');
    expect(pathForLang('/en/reminders?status=all', 'ja')).toBe('/reminders?status=all');
    expect(pathForLang('/en/guide#troubleshooting', 'ja')).toBe('/guide#troubleshooting');
    expect(pathForLang('/faq', 'ja')).toBe('/faq');
  });
  it('round-trips', () => {
    for (const p of ['/', '/login', '/settings/delete-account', '/auth/callback#token=abc']) {
      expect(pathForLang(pathForLang(p, 'en'), 'ja')).toBe(p);
    }
  });
});

describe('browserLang', () => {
  it('keeps ja* and maps anything else to en', () => {
    expect(browserLang(['ja'])).toBe('ja');
    expect(browserLang(['ja-JP', 'en-US'])).toBe('ja');
    expect(browserLang(['JA-jp'])).toBe('ja');
    expect(browserLang(['en-US', 'ja'])).toBe('en');
    expect(browserLang(['fr'])).toBe('en');
    expect(browserLang([])).toBe('en');
    expect(browserLang(undefined)).toBe('en');
  });
});

describe('initialLanguageRedirect', () => {
  it('never redirects a path under /en', () => {
    expect(initialLanguageRedirect('/en/reminders', 'ja', ['ja'])).toBeNull();
    expect(initialLanguageRedirect('/en', null, ['ja-JP'])).toBeNull();
  });
  it('lets the saved preference win on a root path', () => {
    expect(initialLanguageRedirect('/reminders', 'en', ['ja-JP'])).toBe('/en/reminders');
    expect(initialLanguageRedirect('/reminders', 'ja', ['en-US'])).toBeNull();
  });
  it('falls back to the browser language', () => {
    expect(initialLanguageRedirect('/', null, ['ja-JP'])).toBeNull();
    expect(initialLanguageRedirect('/', null, ['en-GB'])).toBe('/en');
    expect(initialLanguageRedirect('/faq?x=1#a', undefined, ['de'])).toBe('/en/faq?x=1#a');
    expect(initialLanguageRedirect('/login', 'garbage', ['ko'])).toBe('/en/login');
  });
});

describe('saved preference', () => {
  it('reads and writes hibiki.lang, ignoring junk and broken storage', () => {
    const map = new Map<string, string>();
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    };
    expect(readSavedLang(storage)).toBeNull();
    saveLang(storage, 'en');
    expect(map.get(LANG_STORAGE_KEY)).toBe('en');
    expect(readSavedLang(storage)).toBe('en');
    map.set(LANG_STORAGE_KEY, 'fr');
    expect(readSavedLang(storage)).toBeNull();
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(readSavedLang(broken)).toBeNull();
    expect(() => saveLang(broken, 'ja')).not.toThrow();
  });
});
