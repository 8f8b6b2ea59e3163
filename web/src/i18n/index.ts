/**
 * i18next setup. Translations live in src/locales/{ja,en}/<namespace>.json. The namespaces the
 * first screen needs (common, home, auth) are bundled; the others load with their pages (their
 * loaders are in ./lazyLocales, fetched with the first of them).
 */
import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '../lib/lang';

type Dict = Record<string, unknown>;

export const EAGER_NAMESPACES = ['common', 'home', 'auth'] as const;

const eager = import.meta.glob<Dict>('../locales/*/{common,home,auth}.json', { eager: true, import: 'default' });

const backend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const path = `../locales/${language}/${namespace}.json`;
    const bundled = eager[path];
    if (bundled) return callback(null, bundled as never);
    // The other namespaces' loaders are a chunk of their own (./lazyLocales).
    import('./lazyLocales')
      .then(({ lazyLocales }) => {
        const load = lazyLocales[path];
        if (!load) throw new Error(`No translations for ${language}/${namespace}`);
        return load();
      })
      .then(
        (data) => callback(null, data as never),
        (err: unknown) => callback(err as Error, false),
      );
  },
};

export function initI18n(lang: Lang) {
  if (i18n.isInitialized) {
    // Asked again for another language (a test file after another, in one worker): that one.
    if (i18n.language !== lang) void i18n.changeLanguage(lang);
    return i18n;
  }
  void i18n
    .use(backend)
    .use(initReactI18next)
    .init({
      lng: lang,
      supportedLngs: ['ja', 'en'],
      fallbackLng: false,
      ns: [...EAGER_NAMESPACES],
      defaultNS: 'common',
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: true },
    });
  return i18n;
}

export { i18n };
