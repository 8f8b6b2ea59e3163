import type { Lang } from './lang';

const locales: Record<Lang, string> = { ja: 'ja-JP', en: 'en-US' };

export function formatDate(iso: string, lang: Lang, timeZone?: string): string {
  return new Intl.DateTimeFormat(locales[lang], { dateStyle: 'medium', ...(timeZone ? { timeZone } : {}) }).format(new Date(iso));
}

export function formatTime(iso: string, lang: Lang, timeZone?: string): string {
  return new Intl.DateTimeFormat(locales[lang], { timeStyle: 'medium', ...(timeZone ? { timeZone } : {}) }).format(new Date(iso));
}

export function formatDateTime(iso: string, lang: Lang, timeZone?: string): string {
  // dateStyle/timeStyle cannot be combined with timeZoneName, so spell the fields out.
  return new Intl.DateTimeFormat(locales[lang], {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    ...(timeZone ? { timeZone, timeZoneName: 'short' } : {}),
  }).format(new Date(iso));
}
