/**
 * i18next setup. Translations live in src/locales/{ja,en}/<namespace>.json. The namespaces the
 * first screen needs (common, home, auth) are bundled; the others load with their pages.
 */
import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Lang } from '../lib/lang';

type Dict = Record<string, unknown>;

export const EAGER_NAMESPACES = ['common', 'home', 'auth'] as const;

const eager = import.meta.glob<Dict>('../locales/*/{common,home,auth}.json', { eager: true, import: 'default' });
const lazy = import.meta.glob<Dict>(['../locales/*/*.json', '!../locales/*/{common,home,auth}.json'], {
  import: 'default',
});

const backend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const path = `../locales/${language}/${namespace}.json`;
    const bundled = eager[path];
    if (bundled) return callback(null, bundled as never);
    const load = lazy[path];
    if (!load) return callback(new Error(`No translations for ${language}/${namespace}`), false);
    load().then(
      (data) => callback(null, data as never),
      (err: unknown) => callback(err as Error, false),
    );
  },
};

export function initI18n(lang: Lang) {
  if (i18n.isInitialized) return i18n;
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
