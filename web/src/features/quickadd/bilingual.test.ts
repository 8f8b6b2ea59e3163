// @vitest-environment node
/**
 * Quick add reads both languages on either page (decisions.md, "Trust from the first minute"):
 * both grammars read the phrase, each first in turn with the other filling in what it missed, and
 * the fuller reading wins. Now = 2026-11-25 (Wed) 10:00 Asia/Tokyo = 2026-11-24 (Tue) 20:00
 * America/New_York, as in parse.test.ts; a Japanese page is in Tokyo, an English one in New York.
 */
import { describe, expect, it } from 'vitest';
import type { Recurrence } from '../../lib/types';
import { compareReadings, fullerReading, parseQuickAdd, type QuickLang, type Reading } from './parse';

const NOW = Date.parse('2026-11-25T01:00:00Z');
const ZONE: Record<QuickLang, string> = { ja: 'Asia/Tokyo', en: 'America/New_York' };

type Row = [phrase: string, title: string, when: string | null, rec?: Recurrence];
const none: Recurrence = { kind: 'none' };
const daily: Recurrence = { kind: 'daily' };
const weekly: Recurrence = { kind: 'weekly' };
const weekdays: Recurrence = { kind: 'weekdays' };

/** English on a Japanese page (Tokyo). */
const EN_ON_JA: Row[] = [
  ['every weekday at 7:30 standup', 'standup', '2026-11-26 07:30', weekdays],
  ['every Monday 8am trash', 'trash', '2026-11-30 08:00', weekly],
  ['tomorrow 9am take medicine', 'take medicine', '2026-11-26 09:00'],
  ['in 20 minutes tea', 'tea', '2026-11-25 10:20'],
  ['every day at 9pm journal', 'journal', '2026-11-25 21:00', daily],
  ['every other Friday 6pm drinks', 'drinks', '2026-11-27 18:00', { kind: 'weekly', interval: 2 }],
  ['daily standup at 10', 'standup', '2026-11-26 10:00', daily],
  ['every 3 hours drink water', 'drink water', '2026-11-25 13:00', { kind: 'hourly', interval_hours: 3 }],
  ['every morning stretch', 'stretch', '2026-11-26 08:00', daily],
  ['remind me to call mom at 7pm', 'call mom', '2026-11-25 19:00'],
  ['buy milk', 'buy milk', null],
  ['Call May', 'Call May', null],
];

/** Japanese on an English page (New York). */
const JA_ON_EN: Row[] = [
  ['明日9時 薬', '薬', '2026-11-25 09:00'],
  ['毎週月曜8時 ゴミ出し', 'ゴミ出し', '2026-11-30 08:00', weekly],
  ['平日7時半 朝会', '朝会', '2026-11-25 07:30', weekdays],
  ['3時間後 洗濯', '洗濯', '2026-11-24 23:00'],
  ['毎朝 体操', '体操', '2026-11-25 08:00', daily],
  ['毎月末 家賃', '家賃', '2026-11-30 09:00', { kind: 'monthly', day: -1 }],
  ['毎晩9時 日記', '日記', '2026-11-24 21:00', daily],
  ['隔週金曜 18時 飲み会', '飲み会', '2026-11-27 18:00', { kind: 'weekly', interval: 2 }],
  ['牛乳を買う', '牛乳を買う', null],
];

/** Both languages in one phrase, on each page. */
const MIXED: [QuickLang, ...Row][] = [
  ['ja', 'every weekday 7:30 朝会', '朝会', '2026-11-26 07:30', weekdays],
  ['en', 'every weekday 7:30 朝会', '朝会', '2026-11-25 07:30', weekdays],
  ['ja', '毎日 9pm 薬', '薬', '2026-11-25 21:00', daily],
  ['en', '毎週月曜 at 8am ゴミ出し', 'ゴミ出し', '2026-11-30 08:00', weekly],
  ['en', 'tomorrow 10時 歯医者', '歯医者', '2026-11-25 10:00'],
  ['ja', '明日 9am dentist', 'dentist', '2026-11-26 09:00'],
  ['ja', 'every Monday 会議 10時', '会議', '2026-11-30 10:00', weekly],
  ['en', '毎晩 at 9 日記', '日記', '2026-11-24 21:00', daily],
  ['ja', 'weekly 会議', '会議', '2026-11-26 09:00', weekly],
  // the same repeat said twice: neither is left in the title
  ['ja', '毎日 every day 薬', '薬', '2026-11-26 09:00', daily],
];

function check(lang: QuickLang, [phrase, title, when, rec]: Row) {
  const r = parseQuickAdd(phrase, { now: NOW, timeZone: ZONE[lang], lang });
  expect({ title: r.title, when: r.date && r.time ? `${r.date} ${r.time.slice(0, 5)}` : null, rec: r.recurrence }).toEqual({
    title,
    when,
    rec: rec ?? none,
  });
  // Repeat words never end up in the title.
  expect(r.title).not.toMatch(/\b(?:every|each|daily|weekly|monthly|yearly|weekdays?)\b|毎|隔週|平日/i);
}

describe('quick add: English on a Japanese page', () => {
  it.each(EN_ON_JA)('%s', (...row) => check('ja', row));
});

describe('quick add: Japanese on an English page', () => {
  it.each(JA_ON_EN)('%s', (...row) => check('en', row));
});

describe('quick add: both languages in one phrase', () => {
  it.each(MIXED)('%s page: %s', (lang, ...row) => check(lang, row));
});

describe('quick add: the same phrase gives the same reminder on either page', () => {
  // Tokyo on both pages, so that the date and the time compare as they are.
  const SAME = ['every weekday at 7:30 standup', '明日9時 薬', '毎週月曜 at 8am ゴミ出し', 'tomorrow 10時 歯医者', '毎晩 at 9 日記', 'buy milk'];
  it.each(SAME)('%s', (phrase) => {
    const on = (lang: QuickLang) => {
      const r = parseQuickAdd(phrase, { now: NOW, timeZone: 'Asia/Tokyo', lang });
      return { title: r.title, send_at: r.send_at, recurrence: r.recurrence };
    };
    expect(on('en')).toEqual(on('ja'));
  });
});

describe('the arbitration between two readings (compareReadings, fullerReading)', () => {
  const r = (over: Partial<Reading>): Reading => ({ lang: 'ja', repeat: false, date: false, time: false, titleLength: 10, understood: 0, ...over });
  type Case = [name: string, a: Reading, b: Reading, page: QuickLang, winner: 'a' | 'b' | 'tie'];
  const CASES: Case[] = [
    // "every weekday at 7:30 standup" on a Japanese page: the Japanese grammar alone reads only the time
    ['more of the phrase understood wins over the page language', r({ lang: 'en', repeat: true, time: true, titleLength: 7, understood: 22 }), r({ lang: 'ja', time: true, titleLength: 24, understood: 4 }), 'ja', 'a'],
    ['a repeat counts like a date or a time', r({ repeat: true }), r({ date: true }), 'ja', 'tie'],
    ['date and time beat a time alone', r({ date: true, time: true, titleLength: 20 }), r({ time: true, titleLength: 1 }), 'en', 'a'],
    ['with as much understood, the shorter title wins', r({ lang: 'en', time: true, titleLength: 3 }), r({ lang: 'ja', time: true, titleLength: 6 }), 'ja', 'a'],
    ['with the same title, more characters understood wins', r({ time: true, titleLength: 3, understood: 4 }), r({ time: true, titleLength: 3, understood: 8 }), 'ja', 'b'],
    ['all else equal, the page language’s reading wins (ja)', r({ lang: 'en', time: true }), r({ lang: 'ja', time: true }), 'ja', 'b'],
    ['all else equal, the page language’s reading wins (en)', r({ lang: 'en', time: true }), r({ lang: 'ja', time: true }), 'en', 'a'],
    ['nothing understood by either: the page language', r({ lang: 'ja' }), r({ lang: 'en' }), 'en', 'b'],
  ];
  it.each(CASES)('%s', (_name, a, b, page, winner) => {
    const c = compareReadings(a, b, page);
    if (winner === 'tie') expect(c).toBe(0);
    else {
      expect(Math.sign(c)).toBe(winner === 'a' ? -1 : 1);
      expect(Math.sign(compareReadings(b, a, page))).toBe(winner === 'a' ? 1 : -1);
      expect(fullerReading([a, b], page)).toBe(winner === 'a' ? a : b);
      expect(fullerReading([b, a], page)).toBe(winner === 'a' ? a : b);
    }
  });
  it('keeps the first of equals', () => {
    const a = r({ time: true });
    const b = r({ time: true });
    expect(fullerReading([a, b], 'ja')).toBe(a);
  });
});
