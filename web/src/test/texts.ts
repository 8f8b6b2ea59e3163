/**
 * The app's own texts (src/locales), so tests find elements by what a person reads and keep
 * passing when a wording changes: `tr('en', 'settings:delete.failed')`, `{{name}}` filled in.
 */
import type { Lang } from '../lib/lang';

const files = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { eager: true, import: 'default' });

export function tr(lang: Lang, id: string, params: Record<string, string | number> = {}): string {
  const [ns, key] = id.includes(':') ? (id.split(':') as [string, string]) : ['common', id];
  let node: unknown = files[`../locales/${lang}/${ns}.json`];
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`no text ${lang}:${id}`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(params[k] ?? ''));
}
