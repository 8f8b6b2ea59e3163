/**
 * Language routing (decisions.md "Language"):
 * - Japanese lives at root paths, English under /en. The path decides the rendered language.
 * - First visit to a root path: the saved preference (localStorage `hibiki.lang`) wins,
 *   else the browser language (ja* stays, anything else redirects to /en…).
 * - The EN/JA switch saves the preference and rewrites the path.
 */
export type Lang = 'ja' | 'en';

export const LANGS: readonly Lang[] = ['ja', 'en'];
export const LANG_STORAGE_KEY = 'hibiki.lang';
export const EN_PREFIX = '/en';

export function isLang(value: unknown): value is Lang {
  return value === 'ja' || value === 'en';
}

/** True when the path is /en or starts with /en/ (but not e.g. /entry). */
export function isEnPath(pathname: string): boolean {
  return pathname === EN_PREFIX || pathname.startsWith(EN_PREFIX + '/');
}

export function langFromPath(pathname: string): Lang {
  return isEnPath(pathname) ? 'en' : 'ja';
}

/** The path without its language prefix: '/en/reminders' -> '/reminders', '/en' -> '/'. */
export function stripLangPrefix(pathname: string): string {
  if (!isEnPath(pathname)) return pathname || '/';
  const rest = pathname.slice(EN_PREFIX.length);
  return rest === '' ? '/' : rest;
}

/**
 * Rewrite a path (which may carry ?query and #hash) for `lang`, adding or removing the /en
 * prefix. '/' <-> '/en', '/reminders?x=1' <-> '/en/reminders?x=1'.
 */
export function pathForLang(path: string, lang: Lang): string {
  const match = /^([^?#]*)(.*)$/.exec(path);
  const pathname = match?.[1] || '/';
  const suffix = match?.[2] ?? '';
  const bare = stripLangPrefix(pathname.startsWith('/') ? pathname : '/' + pathname);
  if (lang === 'ja') return bare + suffix;
  return (bare === '/' ? EN_PREFIX : EN_PREFIX + bare) + suffix;
}

/** Language from the browser's language list: ja* -> ja, anything else -> en. */
export function browserLang(languages: readonly string[] | undefined): Lang {
  const first = languages?.find((l) => typeof l === 'string' && l.length > 0);
  if (!first) return 'en'; // spec section 9: default en
  return first.toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

/**
 * Where the first visit should go. Returns the path to redirect to, or null to stay.
 * Only root (Japanese) paths may be redirected; a path under /en is always honoured.
 */
export function initialLanguageRedirect(
  fullPath: string,
  savedPreference: string | null | undefined,
  browserLanguages: readonly string[] | undefined,
): string | null {
  const pathname = /^[^?#]*/.exec(fullPath)?.[0] ?? '/';
  if (isEnPath(pathname)) return null;
  const wanted: Lang = isLang(savedPreference) ? savedPreference : browserLang(browserLanguages);
  return wanted === 'en' ? pathForLang(fullPath, 'en') : null;
}

/** Reads the saved preference; tolerant of storage being unavailable. */
export function readSavedLang(storage: Pick<Storage, 'getItem'> | undefined): Lang | null {
  try {
    const value = storage?.getItem(LANG_STORAGE_KEY);
    return isLang(value) ? value : null;
  } catch {
    return null;
  }
}

export function saveLang(storage: Pick<Storage, 'setItem'> | undefined, lang: Lang): void {
  try {
    storage?.setItem(LANG_STORAGE_KEY, lang);
  } catch {
    /* private mode or storage disabled: the path still carries the language */
  }
}
