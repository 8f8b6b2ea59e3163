/**
 * The one way the app writes dates and times (decisions.md, "As good as a native app"):
 * ja `11月24日(火) 9:00`, en `Tue, Nov 24, 9:00 AM`; the year only when it is not this year;
 * seconds only when they are not :00; 今日/明日/昨日 (Today/Tomorrow/Yesterday) for near days,
 * judged in the calendar of the zone shown; the zone named only when it is not the user's.
 */
import type { Lang } from './lang';
import { sameZone } from './zoneIds';
import { browserTimeZone, utcToZoned } from './zonedTime';

const LOCALES: Record<Lang, string> = { ja: 'ja-JP', en: 'en-US' };
/** How Intl joins a day and a time in one format: `11月24日(火) 9:00`, `Tue, Nov 24, 9:00 AM`. */
const DAY_TIME_SEPARATOR: Record<Lang, string> = { ja: ' ', en: ', ' };
const DAY_MS = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(lang: Lang, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = lang + JSON.stringify(options);
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(LOCALES[lang], options);
    formats.set(key, f);
  }
  return f;
}

const relative = new Map<Lang, Intl.RelativeTimeFormat>();
/** 今日/明日/昨日, Today/Tomorrow/Yesterday for a day `offset` days from today; null further away. */
function nearDayWord(offset: number, lang: Lang): string | null {
  if (Math.abs(offset) > 1) return null;
  let f = relative.get(lang);
  if (!f) {
    f = new Intl.RelativeTimeFormat(LOCALES[lang], { numeric: 'auto' });
    relative.set(lang, f);
  }
  const word = f.format(offset, 'day');
  return word.charAt(0).toLocaleUpperCase(LOCALES[lang]) + word.slice(1);
}

const dayNumber = (ymd: string) => Math.round(Date.parse(`${ymd}T00:00:00Z`) / DAY_MS);

/** A calendar date (YYYY-MM-DD) with the year only when it is not `todayYmd`'s. */
function calendarDay(ymd: string, todayYmd: string, lang: Lang, weekday: boolean): string {
  const ms = Date.parse(`${ymd}T00:00:00Z`);
  if (!Number.isFinite(ms)) return ymd;
  return dateTimeFormat(lang, {
    timeZone: 'UTC',
    ...(ymd.slice(0, 4) !== todayYmd.slice(0, 4) ? { year: 'numeric' } : {}),
    month: 'short',
    day: 'numeric',
    ...(weekday ? { weekday: 'short' } : {}),
  }).format(ms);
}

export interface WhenOptions {
  lang: Lang;
  /** The zone the time belongs to (a reminder's); the user's zone when absent. */
  zone?: string;
  /** The user's zone (their settings): a `zone` other than this one is named after the time. */
  userZone?: string;
  /** The current time: decides 今日/明日/昨日 and whether the year is shown. */
  now: number;
}

/** An instant as a day and a time: `明日 9:00`, `Tue, Nov 24, 9:00:30 AM`, `2027年1月5日(火) 9:00 GMT-5`. */
export function formatWhen(at: string | number, options: WhenOptions): string {
  const parts = whenParts(at, options);
  return parts ? parts.day + DAY_TIME_SEPARATOR[options.lang] + parts.time : '';
}

/** formatWhen's two halves, for layouts that stack them: { day: '明日', time: '9:00' }; null for a broken time. */
export function whenParts(at: string | number, { lang, zone, userZone, now }: WhenOptions): { day: string; time: string } | null {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) return null;
  const timeZone = zone || userZone || browserTimeZone();
  const local = utcToZoned(ms, timeZone);
  const today = utcToZoned(now, timeZone).date;
  const day = nearDayWord(dayNumber(local.date) - dayNumber(today), lang) ?? calendarDay(local.date, today, lang, true);
  const time = dateTimeFormat(lang, {
    timeZone,
    hour: 'numeric',
    minute: '2-digit',
    ...(local.time.endsWith(':00') ? {} : { second: '2-digit' }),
    ...(zone && userZone && !sameZone(zone, userZone) ? { timeZoneName: 'short' } : {}),
  }).format(ms);
  return { day, time };
}

export interface DayOptions {
  lang: Lang;
  now: number;
  /** Where "this year" is judged, and the zone an instant's day is taken in (default: the browser's). */
  zone?: string;
  /** With the weekday: 11月24日(火), Tue, Nov 24 (default); without: 11月24日, Nov 24. */
  weekday?: boolean;
}

/** A day (YYYY-MM-DD, or the day of an instant in `zone`), with the year only when it is not this year. */
export function formatDay(date: string, { lang, now, zone, weekday = true }: DayOptions): string {
  const timeZone = zone || browserTimeZone();
  const ymd = /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : Number.isFinite(Date.parse(date)) ? utcToZoned(date, timeZone).date : '';
  if (!ymd) return '';
  return calendarDay(ymd, utcToZoned(now, timeZone).date, lang, weekday);
}
