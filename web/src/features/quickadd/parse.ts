/**
 * Quick add: an everyday phrase ("明日9時 薬", "every weekday at 7:30 stretch") -> a reminder to
 * confirm, in either language on either page (both grammars read it; the fuller reading wins). Dates and times come from chrono-node's ja/en parsers plus a few words they miss
 * (明後日, 正午, 夜9時, 3時間後, in 20 minutes); repeats from our own small grammar below. Pure: it
 * takes `now`, the time zone and the language, so the tests are deterministic. Loaded on demand
 * (with chrono-node) when the quick-add box is first used.
 *
 * Decisions where a phrase says less than a reminder needs:
 * - no time: 09:00 (毎朝/every morning: the morning time, 08:00 by default; 毎晩/今夜/every
 *   evening/tonight: the evening time, 18:00 by default);
 * - a time but no date: today if still ahead, else tomorrow (a repeat: its next matching day);
 * - a weekday alone (金曜 / friday) that is today with its time passed: next week's;
 * - every N hours with no time: the first ring N hours from now (whole minute);
 * - "in N days/weeks" and N日後 keep the default time unless a time is given;
 * - nothing about time at all: `send_at` null (the dialog's own default applies).
 */
import * as chrono from 'chrono-node';
import type { Recurrence, Weekday } from '../../lib/types';
import { WEEKDAYS } from '../../lib/types';
import { utcToZoned, zonedToRfc3339, zonedToUtc } from '../../lib/zonedTime';

export type QuickLang = 'ja' | 'en';

export interface Span {
  start: number;
  end: number;
  kind: 'repeat' | 'date' | 'time' | 'relative';
}

export interface QuickAddResult {
  title: string;
  /** RFC 3339 with the zone's offset, or null when the phrase names no time at all */
  send_at: string | null;
  /** local date and time of `send_at` in `timezone` (YYYY-MM-DD, HH:mm:ss) */
  date: string | null;
  time: string | null;
  timezone: string;
  recurrence: Recurrence;
  /** the parts of the text that were understood (offsets into the input) */
  matched: Span[];
  /** the grammar that understood it */
  lang: QuickLang;
}

export interface ParseOptions {
  now: number | Date;
  timeZone: string;
  /** the page language: its grammar wins a tie between the two readings */
  lang: QuickLang;
  /** HH:mm, the settings' morning_time / evening_time */
  morning?: string;
  evening?: string;
}

const DEFAULT_TIME = '09:00';
const DEFAULT_MORNING = '08:00';
const DEFAULT_EVENING = '18:00';
/** api.md: interval limits per kind */
const INTERVAL_MAX = { daily: 365, weekly: 52, custom: 52, monthly: 12, yearly: 10 } as const;

// ---------------------------------------------------------------------------------------------
// Local dates (YYYY-MM-DD) without time zones: plain calendar arithmetic.

function ymd(y: number, m: number, d: number): string {
  const t = new Date(Date.UTC(y, m - 1, d));
  return `${String(t.getUTCFullYear()).padStart(4, '0')}-${String(t.getUTCMonth() + 1).padStart(2, '0')}-${String(t.getUTCDate()).padStart(2, '0')}`;
}
function parts(date: string): [number, number, number] {
  return date.split('-').map(Number) as [number, number, number];
}
export function addDays(date: string, n: number): string {
  const [y, m, d] = parts(date);
  return ymd(y, m, d + n);
}
/** Monday = 0 .. Sunday = 6 */
function weekdayIndex(date: string): number {
  const [y, m, d] = parts(date);
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}
function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Whether a local date is an occurrence date of the repeat (the start must be one). */
function matchesRule(date: string, rec: Recurrence): boolean {
  const [y, m, d] = parts(date);
  const wd = WEEKDAYS[weekdayIndex(date)]!;
  switch (rec.kind) {
    case 'weekdays':
      return weekdayIndex(date) < 5;
    case 'custom':
      return rec.days.includes(wd);
    case 'monthly': {
      const last = daysInMonth(y, m);
      if (rec.day != null) return rec.day === -1 || rec.day >= last ? d === last : d === rec.day;
      if (rec.week != null && rec.weekday) {
        if (wd !== rec.weekday) return false;
        return rec.week === -1 ? d + 7 > last : Math.ceil(d / 7) === rec.week;
      }
      return true;
    }
    default:
      return true;
  }
}

// ---------------------------------------------------------------------------------------------
// Text helpers

/** Full-width ASCII and the ideographic space to ASCII, one character for one (offsets hold). */
function narrow(s: string): string {
  return s.replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, ' ');
}

const JA_WD: Record<string, Weekday> = { 月: 'mon', 火: 'tue', 水: 'wed', 木: 'thu', 金: 'fri', 土: 'sat', 日: 'sun' };
const EN_WD: Record<string, Weekday> = { mon: 'mon', tue: 'tue', wed: 'wed', thu: 'thu', fri: 'fri', sat: 'sat', sun: 'sun' };
const EN_WD_RE = '(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)';
const EN_WD_LIST = `${EN_WD_RE}s?(?:\\s*(?:,\\s*and|,|&|and|/)\\s*${EN_WD_RE}s?)*`;
const JA_WD_ONE = '[月火水木金土日](?:曜日?)?';
/** 月曜, 月・水, 月水金, 土日: a lone 日 or 月 is a weekday only with 曜 or in a list (毎週 日報 is a title) */
const JA_WD_LIST = `(?:[月火水木金土日]曜日?|[月火水木金土日](?=(?:\\s*[・、,/と]\\s*)?[月火水木金土日]))(?:(?:\\s*[・、,/と]\\s*)?[月火水木金土日](?:曜日?)?)*`;

function jaDays(s: string): Weekday[] {
  return WEEKDAYS.filter((d) => [...s.replace(/曜日?/g, '')].some((c) => JA_WD[c] === d));
}
function enDays(s: string): Weekday[] {
  const found = new Set((s.toLowerCase().match(new RegExp(EN_WD_RE, 'g')) ?? []).map((w) => EN_WD[w.slice(0, 3)]!));
  return WEEKDAYS.filter((d) => found.has(d));
}
const ORDINALS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, last: -1 };
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, ten: 10, fifteen: 15, thirty: 30 };
const num = (s: string) => NUMBER_WORDS[s.toLowerCase()] ?? Number(s);

// ---------------------------------------------------------------------------------------------
// Repeats

interface Repeat {
  rec: Recurrence;
  /** default time of day the words imply (毎朝) */
  partOfDay?: 'morning' | 'evening';
  /** weekly on a named day: the start must be that weekday (custom carries its days itself) */
  on?: Weekday;
}

type RepeatRule = [RegExp, (m: RegExpExecArray) => Repeat | null];

function withInterval<K extends keyof typeof INTERVAL_MAX>(kind: K, n: number): { kind: K; interval?: number } | null {
  if (!Number.isInteger(n) || n < 1 || n > INTERVAL_MAX[kind]) return null;
  return n === 1 ? { kind } : { kind, interval: n };
}

function weeklyOn(days: Weekday[], n: number): Repeat | null {
  if (days.length <= 1) {
    const rec = withInterval('weekly', n);
    return rec ? { rec: rec as Recurrence, ...(days[0] ? { on: days[0] } : {}) } : null;
  }
  const base = withInterval('custom', n);
  return base ? { rec: { ...base, days } as Recurrence } : null;
}

function hourly(n: number): Repeat | null {
  return Number.isInteger(n) && n >= 1 && n <= 24 ? { rec: { kind: 'hourly', interval_hours: n } } : null;
}

function monthlyNth(n: number, weekday: Weekday | undefined, every = 1): Repeat | null {
  const base = withInterval('monthly', every);
  if (!base || !weekday || !(n === -1 || (n >= 1 && n <= 5))) return null;
  return { rec: { ...base, week: n, weekday } };
}

function monthlyDay(day: number, every = 1): Repeat | null {
  const base = withInterval('monthly', every);
  if (!base || !(day === -1 || (day >= 1 && day <= 31))) return null;
  return { rec: { ...base, day } };
}

const JA_REPEATS: RepeatRule[] = [
  [/(\d+)\s*時間\s*(?:ごと|毎|おき)に?/, (m) => hourly(Number(m[1]))],
  [/毎時/, () => hourly(1)],
  [/(?:隔日|1日おき)に?/, () => ({ rec: { kind: 'daily', interval: 2 } })],
  [/(\d+)\s*日\s*(?:ごと|毎)に?/, (m) => wrap(withInterval('daily', Number(m[1])))],
  [/毎朝/, () => ({ rec: { kind: 'daily' }, partOfDay: 'morning' })],
  [/毎(?:晩|夜)/, () => ({ rec: { kind: 'daily' }, partOfDay: 'evening' })],
  [/毎日/, () => ({ rec: { kind: 'daily' } })],
  [/(?:毎週\s*)?平日(?:の|は)?(?:毎日)?|毎平日/, () => ({ rec: { kind: 'weekdays' } })],
  [
    new RegExp(`(?:(毎月|隔月)|(\\d+)\\s*[かヶケカ箇]?月\\s*(?:ごと|毎)に?)\\s*の?\\s*(?:第\\s*(\\d)|(最終|最後の))\\s*(${JA_WD_ONE})`),
    (m) => monthlyNth(m[4] ? -1 : Number(m[3]), jaDays(m[5]!)[0], m[1] === '隔月' ? 2 : m[2] ? Number(m[2]) : 1),
  ],
  [new RegExp(`第\\s*(\\d)\\s*(${JA_WD_ONE})`), (m) => monthlyNth(Number(m[1]), jaDays(m[2]!)[0])],
  [new RegExp(`(?:最終|最後の)\\s*(${JA_WD_ONE})`), (m) => monthlyNth(-1, jaDays(m[1]!)[0])],
  [/(?:(毎月|隔月)|(\d+)\s*[かヶケカ箇]?月\s*(?:ごと|毎)に?)\s*の?\s*(?:末日?|最終日|最後の日)/, (m) => monthlyDay(-1, m[1] === '隔月' ? 2 : m[2] ? Number(m[2]) : 1)],
  [/(?:(毎月|隔月)|(\d+)\s*[かヶケカ箇]?月\s*(?:ごと|毎)に?)\s*の?\s*(\d{1,2})\s*日/, (m) => monthlyDay(Number(m[3]), m[1] === '隔月' ? 2 : m[2] ? Number(m[2]) : 1)],
  [/(?:(毎月)|(隔月)|(\d+)\s*[かヶケカ箇]月\s*(?:ごと|毎)に?)/, (m) => wrap(withInterval('monthly', m[2] ? 2 : m[3] ? Number(m[3]) : 1))],
  [
    new RegExp(`(?:(毎週)|(隔週)|(\\d+)\\s*週間?\\s*(?:ごと|毎|おき)に?)\\s*(?:の|に)?\\s*(?:[(（]\\s*)?(${JA_WD_LIST})?(?:\\s*[)）])?`),
    (m) => {
      const every = m[2] ? 2 : m[3] ? Number(m[3]) : 1;
      return weeklyOn(m[4] ? jaDays(m[4]) : [], every);
    },
  ],
  [new RegExp(`(${JA_WD_LIST})\\s*(?:ごと|毎)に?`), (m) => weeklyOn(jaDays(m[1]!), 1)],
  [/(?:(毎年)|(\d+)\s*年\s*(?:ごと|毎)に?)/, (m) => wrap(withInterval('yearly', m[2] ? Number(m[2]) : 1))],
];

const EN_REPEATS: RepeatRule[] = [
  [/\bevery\s+(\d+|two|three|four|five|six)\s+(?:hours?|hrs?)\b/i, (m) => hourly(num(m[1]!))],
  [/\b(?:every\s+hour|hourly)\b/i, () => hourly(1)],
  [/\bevery\s+other\s+day\b/i, () => ({ rec: { kind: 'daily', interval: 2 } })],
  [/\bevery\s+(\d+|two|three|four|five|six|ten)\s+days?\b/i, (m) => wrap(withInterval('daily', num(m[1]!)))],
  [/\b(?:every|each)\s+morning\b/i, () => ({ rec: { kind: 'daily' }, partOfDay: 'morning' })],
  [/\b(?:every|each)\s+(?:evening|night)\b|\bnightly\b/i, () => ({ rec: { kind: 'daily' }, partOfDay: 'evening' })],
  [/\b(?:(?:every|each)\s+(?:week\s*day|work\s*day|business\s+day)|(?:on\s+)?weekdays)\b/i, () => ({ rec: { kind: 'weekdays' } })],
  [/\b(?:every|each)\s+day\b|\bdaily\b|\beveryday\b/i, () => ({ rec: { kind: 'daily' } })],
  [
    new RegExp(
      `\\b(?:every|each|on\\s+the)\\s+(\\d)(?:st|nd|rd|th)\\s+(${EN_WD_RE})(?:\\s+of\\s+(?:every|each|the)\\s+month)?\\b|\\b(?:every|each|on\\s+the)\\s+(first|second|third|fourth|fifth|last)\\s+(${EN_WD_RE})(?:\\s+of\\s+(?:every|each|the)\\s+month)?\\b`,
      'i',
    ),
    (m) => (m[1] ? monthlyNth(Number(m[1]), enDays(m[2]!)[0]) : monthlyNth(ORDINALS[m[3]!.toLowerCase()]!, enDays(m[4]!)[0])),
  ],
  [
    /\b(?:(?:every|each)\s+(?:(other)\s+|(\d+|two|three|six)\s+)?months?|monthly)\s+on\s+the\s+(?:(last)\s+day|(\d{1,2})(?:st|nd|rd|th)?)\b|\bon\s+the\s+(?:(last)\s+day|(\d{1,2})(?:st|nd|rd|th)?)\s+of\s+(?:every|each|the)\s+month\b|\b(?:at\s+)?the\s+end\s+of\s+(?:every|each|the)\s+month\b/i,
    (m) => monthlyDay(m[3] || m[5] || !(m[4] || m[6]) ? -1 : Number(m[4] ?? m[6]), m[1] ? 2 : m[2] ? num(m[2]) : 1),
  ],
  [/\b(?:every|each)\s+(?:(other)\s+|(\d+|two|three|six)\s+)?months?\b|\bmonthly\b/i, (m) => wrap(withInterval('monthly', m[1] ? 2 : m[2] ? num(m[2]) : 1))],
  [
    new RegExp(`\\b(?:(?:every|each)\\s+(?:(other)\\s+|(\\d+|two|three|four)\\s+)?weeks?|(bi-?weekly)|weekly)(?:\\s+on)?(?:\\s+(${EN_WD_LIST}))?\\b`, 'i'),
    (m) => weeklyOn(m[4] ? enDays(m[4]) : [], m[1] || m[3] ? 2 : m[2] ? num(m[2]) : 1),
  ],
  [new RegExp(`\\b(?:every|each)\\s+(other\\s+)?(${EN_WD_LIST})\\b`, 'i'), (m) => weeklyOn(enDays(m[2]!), m[1] ? 2 : 1)],
  [new RegExp(`\\b(?:on\\s+)?((?:mon|tues|wednes|thurs|fri|satur|sun)days(?:\\s*(?:,\\s*and|,|&|and)\\s*${EN_WD_RE}s?)*)\\b`, 'i'), (m) => weeklyOn(enDays(m[1]!), 1)],
  [/\b(?:every\s+(?:(\d+|two|three|five|ten)\s+)?years?|yearly|annually)\b/i, (m) => wrap(withInterval('yearly', m[1] ? num(m[1]) : 1))],
];

function wrap(rec: Recurrence | { kind: string; interval?: number } | null): Repeat | null {
  return rec ? { rec: rec as Recurrence } : null;
}

// ---------------------------------------------------------------------------------------------
// What one language's grammar finds

interface Found {
  spans: Span[];
  repeat: Repeat | null;
  /** exact instant offset from now (3時間後, in 20 minutes) */
  offsetMs: number | null;
  date: string | null;
  /** the date is only a weekday (金曜 / friday): a passed time moves it a week on */
  weekdayOnly: boolean;
  /** the date names a month and day without a year (12月1日): a passed time moves it a year on */
  noYear: boolean;
  hour: number | null;
  minute: number;
  partOfDay?: 'morning' | 'evening';
  /** 朝/夜/… said with the day (明日の夜): sets the meaning of a bare hour (夜8時 = 20:00) */
  dayWord?: string;
  /** the hour was said with no am/pm or part of the day (9時, at 9): 毎晩 read by the other grammar makes it 21 */
  bareHour?: boolean;
}

/** Blanks out what a rule consumed, so later rules and chrono do not see it again. */
class Text {
  constructor(
    public s: string,
    /** what an earlier grammar already understood: this one does not read it again */
    private readonly known: ReadonlySet<Span['kind']> = new Set(),
  ) {}
  allows(kind: Span['kind']): boolean {
    return !this.known.has(kind);
  }
  take(re: RegExp, kind: Span['kind'], spans: Span[]): RegExpExecArray | null {
    if (!this.allows(kind)) return null;
    const m = re.exec(this.s);
    if (!m || m[0].trim() === '') return null;
    const start = m.index + (m[0].length - m[0].trimStart().length);
    const end = m.index + m[0].trimEnd().length;
    spans.push({ start, end, kind });
    this.s = this.s.slice(0, start) + ' '.repeat(end - start) + this.s.slice(end);
    return m;
  }
}

function emptyFound(): Found {
  return { spans: [], repeat: null, offsetMs: null, date: null, weekdayOnly: false, noYear: false, hour: null, minute: 0 };
}

function applyMeridiem(h: number, word: string | undefined): number {
  if (!word) return h;
  if (/午後|夜|夕方|晩|pm/i.test(word)) return h < 12 ? h + 12 : h;
  if (/昼/.test(word)) return h >= 1 && h < 6 ? h + 12 : h;
  if (/午前|am/i.test(word)) return h === 12 ? 0 : h;
  return h;
}

/**
 * The first repeat rule of the language that matches, taken out of the text. When an earlier
 * grammar already found the repeat, this one's repeat words still leave the text (they are never
 * a title) but do not change the rule.
 */
function takeRepeat(rules: readonly RepeatRule[], t: Text, f: Found): void {
  const known = f.repeat !== null;
  for (const [re, make] of rules) {
    const m = re.exec(t.s);
    const r = m ? make(m) : null;
    if (!r) continue;
    t.take(re, 'repeat', f.spans);
    if (known) continue;
    f.repeat = r;
    f.partOfDay = r.partOfDay;
    return;
  }
}

/**
 * What an earlier grammar understood (`seed`) is not read again: a relative instant settles date
 * and time; a date, a time or a repeat stays as it was read. The text the seed took is blank.
 */
function startFrom(input: string, seed: Found | undefined): [Text, Found] {
  if (!seed) return [new Text(input), emptyFound()];
  const known = new Set<Span['kind']>();
  if (seed.offsetMs !== null) ['relative', 'date', 'time'].forEach((k) => known.add(k as Span['kind']));
  if (seed.date !== null) ['relative', 'date'].forEach((k) => known.add(k as Span['kind']));
  if (seed.hour !== null) ['relative', 'time'].forEach((k) => known.add(k as Span['kind']));
  let blank = input;
  for (const sp of seed.spans) blank = blank.slice(0, sp.start) + ' '.repeat(sp.end - sp.start) + blank.slice(sp.end);
  const t = new Text(blank, known);
  return [t, { ...seed, spans: [...seed.spans] }];
}

function findJa(input: string, today: string, seed?: Found): Found {
  const [t, f] = startFrom(input, seed);
  takeRepeat(JA_REPEATS, t, f);
  let m = t.take(/(\d+)\s*時間\s*(?:(\d+)\s*分\s*)?後に?|(\d+)\s*分\s*後に?/, 'relative', f.spans);
  if (m) f.offsetMs = m[3] ? Number(m[3]) * 60_000 : Number(m[1]) * 3_600_000 + Number(m[2] ?? 0) * 60_000;
  m = t.take(/(\d+)\s*(日|週間)\s*後に?/, 'date', f.spans);
  if (m) f.date = addDays(today, Number(m[1]) * (m[2] === '日' ? 1 : 7));
  m = t.take(/(今日|本日|きょう|明後日|あさって|明日|あした|あす)(?:\s*の?\s*(朝|昼|夕方|夜|晩))?|(今夜|今晩)/, 'date', f.spans);
  if (m) {
    const w = m[1] ?? '';
    f.date = addDays(today, /明後日|あさって/.test(w) ? 2 : /明日|あした|あす/.test(w) ? 1 : 0);
    const pod = m[3] ? '夜' : m[2];
    if (pod) {
      f.partOfDay = /朝/.test(pod) ? 'morning' : /昼/.test(pod) ? undefined : 'evening';
      if (/昼/.test(pod)) f.hour = 12;
    }
    f.dayWord = pod;
  }
  m = t.take(new RegExp(`(来週|今週|再来週)\\s*の?\\s*(${JA_WD_ONE})`), 'date', f.spans);
  if (m) {
    const target = WEEKDAYS.indexOf(jaDays(m[2]!)[0]!);
    const weekStart = addDays(today, -weekdayIndex(today));
    f.date = addDays(weekStart, (m[1] === '今週' ? 0 : m[1] === '来週' ? 7 : 14) + target);
  }
  m = t.take(/正午|お昼(?:の12時)?/, 'time', f.spans);
  if (m) {
    f.hour = 12;
    f.minute = 0;
  }
  m = t.take(/(午前|午後|朝|昼|夕方|夜|晩)?\s*の?\s*(\d{1,2})\s*時\s*(?:(半)|(\d{1,2})\s*分)?(?:ごろ|頃)?(?:から)?/, 'time', f.spans);
  if (!m) m = t.take(/(午前|午後|朝|昼|夕方|夜|晩)?\s*(\d{1,2}):(\d{2})(?![\d/])/, 'time', f.spans);
  if (m) {
    let h = Number(m[2]);
    const minute = m[3] === '半' ? 30 : Number(m[4] ?? (m[3] && /^\d+$/.test(m[3]) ? m[3] : 0));
    const word = m[1] ?? f.dayWord;
    h = applyMeridiem(h, word ?? (f.partOfDay === 'evening' ? '夜' : undefined));
    if (h <= 24 && minute < 60) {
      f.hour = h % 24;
      f.minute = minute;
      f.bareHour = !word && f.partOfDay !== 'evening';
    }
  }
  // The rest (12月1日, 12/1, 金曜日, 次の金曜) goes to chrono's Japanese parser.
  if (!f.date && t.allows('date')) chronoDate(chrono.ja, t, today, f);
  return f;
}

function findEn(input: string, today: string, seed?: Found): Found {
  const [t, f] = startFrom(input, seed);
  takeRepeat(EN_REPEATS, t, f);
  let m = t.take(
    /\bin\s+(?:(\d+)\s*(?:hours?|hrs?|h)(?:\s+(?:and\s+)?(\d+)\s*(?:minutes?|mins?|m))?|(\d+|a|an|one|two|three|five|ten|fifteen|thirty)\s*(minutes?|mins?|hours?|hrs?)|(half\s+an\s+hour))\b/i,
    'relative',
    f.spans,
  );
  if (m) {
    if (m[5]) f.offsetMs = 30 * 60_000;
    else if (m[1]) f.offsetMs = Number(m[1]) * 3_600_000 + Number(m[2] ?? 0) * 60_000;
    else f.offsetMs = num(m[3]!) * (/^h/i.test(m[4]!) ? 3_600_000 : 60_000);
  }
  m = t.take(/\bin\s+(\d+|a|one|two|three)\s+(days?|weeks?)\b/i, 'date', f.spans);
  if (m) f.date = addDays(today, num(m[1]!) * (/^w/i.test(m[2]!) ? 7 : 1));
  m = t.take(/\b(?:the\s+)?day\s+after\s+tomorrow\b/i, 'date', f.spans);
  if (m) f.date = addDays(today, 2);
  m = t.take(/\b(tonight|this\s+evening|tomorrow\s+(?:morning|evening|night)|this\s+morning)\b/i, 'date', f.spans);
  if (m) {
    const w = m[1]!.toLowerCase();
    f.date = addDays(today, w.startsWith('tomorrow') ? 1 : 0);
    f.partOfDay = /morning/.test(w) ? 'morning' : 'evening';
  }
  m = t.take(/\b(?:at\s+)?(noon|midday|midnight)\b/i, 'time', f.spans);
  if (m) {
    f.hour = /midnight/i.test(m[1]!) ? 0 : 12;
    f.minute = 0;
  }
  if (f.hour === null && t.allows('time')) {
    m = t.take(/\b(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?(?![a-z])/i, 'time', f.spans);
    if (!m) m = t.take(/\b(?:at\s+)?(\d{1,2}):(\d{2})\b/i, 'time', f.spans);
    if (!m) m = t.take(/\bat\s+(\d{1,2})\b(?!\s*(?:st|nd|rd|th|%))/i, 'time', f.spans);
    if (m) {
      let h = Number(m[1]);
      const minute = Number(m[2] ?? 0);
      if (m[3]) h = applyMeridiem(h, `${m[3]}m`);
      else if (f.partOfDay === 'evening' && h < 12) h += 12;
      if (h <= 23 && minute < 60) {
        f.hour = h;
        f.minute = minute;
        f.bareHour = !m[3] && f.partOfDay !== 'evening';
      }
    }
  }
  if (!f.date && t.allows('date')) chronoDate(chrono.en, t, today, f);
  return f;
}

/** Dates (and any time still unread) from chrono; a result naming only a month ("May") is a title word. */
function chronoDate(parser: Pick<typeof chrono.en, 'parse'>, t: Text, today: string, f: Found): void {
  const [y, mo, d] = parts(today);
  const ref = { instant: new Date(Date.UTC(y, mo - 1, d, 12)), timezone: 0 };
  for (const r of parser.parse(t.s, ref, { forwardDate: true })) {
    const s = r.start;
    const hasDay = s.isCertain('day') || s.isCertain('weekday');
    const hasTime = s.isCertain('hour') && f.hour === null;
    if (!hasDay && !hasTime) continue;
    if (hasDay && !f.date) {
      f.weekdayOnly = !s.isCertain('day') && s.isCertain('weekday');
      // A weekday alone: its next date from today on (chrono's own pick depends on the machine's zone).
      f.date = f.weekdayOnly ? addDays(today, (s.get('weekday')! + 6 - weekdayIndex(today) + 7) % 7) : ymd(s.get('year')!, s.get('month')!, s.get('day')!);
      f.noYear = s.isCertain('day') && s.isCertain('month') && !s.isCertain('year');
    }
    if (hasTime) {
      f.hour = s.get('hour')!;
      f.minute = s.get('minute') ?? 0;
    }
    f.spans.push({ start: r.index, end: r.index + r.text.trimEnd().length, kind: hasDay ? 'date' : 'time' });
  }
}

// ---------------------------------------------------------------------------------------------
// Title

const JA_PARTICLES = /^(?:から|まで|より|には|に(?!ん)|の|は|で|を|、|,)+/;
const JA_TRAILING = /(?:から|まで|より|には|に|の|は|で|を|、|,)+$/;
const EN_LEADING = /^(?:(?:remind\s+me(?:\s+to)?|to|at|on|in|from|starting|by|every|and)(?:\s+|$)|[,-]\s*)+/i;
const EN_TRAILING = /(?:(?:^|\s+)(?:at|on|in|from|starting|by|every|and|to)|\s*[,-])+$/i;

/** What is left of the phrase once the understood parts are out, with the particles and little words of both languages around them. */
function titleOf(text: string, spans: Span[]): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const pieces: string[] = [];
  let pos = 0;
  for (const s of sorted) {
    if (s.start > pos) pieces.push(text.slice(pos, s.start));
    pos = Math.max(pos, s.end);
  }
  pieces.push(text.slice(pos));
  const clean = pieces
    .map((p) => {
      let q = p.trim();
      q = q.replace(EN_LEADING, '').replace(EN_TRAILING, '').trim();
      q = q.replace(JA_PARTICLES, '').replace(JA_TRAILING, '').trim();
      return q.replace(EN_LEADING, '').replace(EN_TRAILING, '').trim();
    })
    .filter((p) => p !== '');
  return clean.join(' ').replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------
// Putting it together

function hhmm(h: number, m: number): string {
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`;
}

function resolve(text: string, found: Found, lang: QuickLang, o: ParseOptions): QuickAddResult {
  const nowMs = typeof o.now === 'number' ? o.now : o.now.getTime();
  const tz = o.timeZone;
  const today = utcToZoned(nowMs, tz).date;
  const rec: Recurrence = found.repeat?.rec ?? { kind: 'none' };
  const on = found.repeat?.on;
  const isStart = (date: string) => matchesRule(date, rec) && (!on || WEEKDAYS[weekdayIndex(date)] === on);
  const base = { title: titleOf(text, found.spans), timezone: tz, recurrence: rec, matched: [...found.spans].sort((a, b) => a.start - b.start), lang };
  const at = (date: string, time: string) => ({ ...base, send_at: zonedToRfc3339({ date, time }, tz), date, time });

  if (found.offsetMs !== null) {
    const ms = Math.round((nowMs + found.offsetMs) / 1000) * 1000;
    const { date, time } = utcToZoned(ms, tz);
    return { ...base, send_at: zonedToRfc3339({ date, time }, tz), date, time };
  }
  const named = found.hour !== null || found.date !== null || found.partOfDay !== undefined || found.repeat !== null;
  if (!named) return { ...base, send_at: null, date: null, time: null };

  const defaultTime =
    found.partOfDay === 'morning' ? (o.morning ?? DEFAULT_MORNING) : found.partOfDay === 'evening' ? (o.evening ?? DEFAULT_EVENING) : DEFAULT_TIME;
  // 「毎晩」 read by one grammar, "at 9" by the other: the evening's 9.
  const hour = found.hour !== null && found.bareHour && found.partOfDay === 'evening' && found.hour < 12 ? found.hour + 12 : found.hour;
  const time = hour !== null ? hhmm(hour, found.minute) : `${defaultTime.slice(0, 5)}:00`;
  const future = (date: string) => zonedToUtc({ date, time }, tz) > nowMs;

  if (rec.kind === 'hourly' && found.hour === null && found.date === null) {
    const ms = Math.ceil(nowMs / 60_000) * 60_000 + rec.interval_hours * 3_600_000;
    const z = utcToZoned(ms, tz);
    return at(z.date, z.time);
  }
  if (found.date !== null) {
    let date = found.date;
    if (!future(date)) {
      if (found.weekdayOnly) date = addDays(date, 7);
      else if (found.noYear) {
        const [y, m, d] = parts(date);
        date = ymd(y + 1, m, Math.min(d, daysInMonth(y + 1, m)));
      }
    }
    if (rec.kind === 'none' || isStart(date)) return at(date, time);
    // a date that is not one of the rule's days: the rule's first day from it
    for (let i = 1; i < 800; i++) {
      const d = addDays(date, i);
      if (isStart(d)) return at(d, time);
    }
  }
  for (let i = 0; i < 800; i++) {
    const d = addDays(today, i);
    if (isStart(d) && future(d)) return at(d, time);
  }
  return at(addDays(today, 1), time);
}

function understood(spans: readonly Span[]): number {
  return spans.reduce((n, s) => n + (s.end - s.start), 0);
}

// ---------------------------------------------------------------------------------------------
// Both grammars, and the fuller reading

/** What the arbitration between two readings of a phrase looks at. */
export interface Reading {
  /** the grammar that read the phrase first (the other one then filled in what it missed) */
  lang: QuickLang;
  repeat: boolean;
  /** a day (明日, Friday, 12/1, in 3 days) or an instant (3時間後, in 20 minutes) */
  date: boolean;
  /** a time of day (9時, 7:30, noon), a part of the day (毎朝, tonight) or an instant */
  time: boolean;
  /** characters left for the title */
  titleLength: number;
  /** characters understood */
  understood: number;
}

const facets = (r: Reading) => Number(r.repeat) + Number(r.date) + Number(r.time);

/**
 * Negative when `a` is the fuller reading, positive when `b` is, 0 when neither: more of what a
 * reminder needs understood (repeat, date, time), then the least left in the title, then the
 * most characters understood, then the one the page's language read first.
 */
export function compareReadings(a: Reading, b: Reading, pageLang: QuickLang): number {
  return (
    facets(b) - facets(a) ||
    a.titleLength - b.titleLength ||
    b.understood - a.understood ||
    Number(b.lang === pageLang) - Number(a.lang === pageLang)
  );
}

/** The fuller of the readings (the first of equals). */
export function fullerReading<R extends Reading>(readings: readonly [R, ...R[]], pageLang: QuickLang): R {
  return readings.reduce((best, r) => (compareReadings(r, best, pageLang) < 0 ? r : best));
}

/**
 * Parses the phrase with both grammars, each first in turn with the other filling in what it
 * missed (people mix languages: 「every weekday 7:30 朝会」), whatever the page's language; the
 * fuller reading wins (`compareReadings`).
 */
export function parseQuickAdd(text: string, o: ParseOptions): QuickAddResult {
  const nowMs = typeof o.now === 'number' ? o.now : o.now.getTime();
  const today = utcToZoned(nowMs, o.timeZone).date;
  const input = narrow(text);
  const find = (l: QuickLang, seed?: Found) => (l === 'ja' ? findJa(input, today, seed) : findEn(input, today, seed));
  const read = (first: QuickLang) => {
    const other: QuickLang = first === 'ja' ? 'en' : 'ja';
    const own = find(first);
    const found = find(other, own);
    const byFirst = understood(own.spans);
    const reading: Reading = {
      lang: first,
      repeat: found.repeat !== null,
      date: found.date !== null || found.offsetMs !== null,
      time: found.hour !== null || found.offsetMs !== null || found.partOfDay !== undefined,
      titleLength: [...titleOf(text, found.spans)].length,
      understood: understood(found.spans),
    };
    // The grammar that understood the most of it names the result.
    return { ...reading, found, named: byFirst * 2 >= reading.understood ? first : other };
  };
  const best = fullerReading([read(o.lang), read(o.lang === 'ja' ? 'en' : 'ja')], o.lang);
  return resolve(text, best.found, best.named, o);
}
