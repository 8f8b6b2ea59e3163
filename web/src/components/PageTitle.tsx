import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/**
 * The document title of a route, from one of its texts (`ns:key`, usually the page's heading),
 * in the language shown. It does not suspend: the title follows once the namespace is loaded.
 */
export function PageTitle({ text }: { text: `${string}:${string}` }) {
  const ns = text.slice(0, text.indexOf(':'));
  const { t, ready } = useTranslation(ns, { useSuspense: false });
  useDocumentTitle(ready ? t(text.slice(ns.length + 1)) : null);
  return null;
}
