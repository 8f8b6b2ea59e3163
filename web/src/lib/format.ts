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

/** Hours and minutes only: 9:00 (ja), 9:00 AM (en). */
export function formatClock(iso: string, lang: Lang, timeZone?: string): string {
  return new Intl.DateTimeFormat(locales[lang], { hour: 'numeric', minute: '2-digit', ...(timeZone ? { timeZone } : {}) }).format(new Date(iso));
}

/** A day with its weekday, no year: 12月1日(火) (ja), Tue, Dec 1 (en). */
export function formatDay(iso: string, lang: Lang, timeZone?: string): string {
  return new Intl.DateTimeFormat(locales[lang], { month: 'short', day: 'numeric', weekday: 'short', ...(timeZone ? { timeZone } : {}) }).format(new Date(iso));
}
