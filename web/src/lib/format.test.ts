import { describe, expect, it } from 'vitest';
import { formatDay, formatWhen, whenParts } from './format';

// Tuesday 2026-11-24, 12:00 in Tokyo (03:00 UTC); in New York still Monday the 23rd, 22:00.
const NOW = Date.parse('2026-11-24T03:00:00Z');
const TOKYO = 'Asia/Tokyo';
const NEW_YORK = 'America/New_York';

describe('formatWhen', () => {
  const inTokyo = { zone: TOKYO, userZone: TOKYO, now: NOW };
  it.each([
    ['today', '2026-11-24T00:00:00Z', '今日 9:00', 'Today, 9:00 AM'],
    ['tomorrow', '2026-11-24T15:00:00Z', '明日 0:00', 'Tomorrow, 12:00 AM'],
    ['yesterday', '2026-11-23T14:59:00Z', '昨日 23:59', 'Yesterday, 11:59 PM'],
    ['another day this year', '2026-12-01T10:00:00Z', '12月1日(火) 19:00', 'Tue, Dec 1, 7:00 PM'],
    ['two days ahead', '2026-11-26T00:00:00Z', '11月26日(木) 9:00', 'Thu, Nov 26, 9:00 AM'],
    ['another year', '2027-01-05T00:00:00Z', '2027年1月5日(火) 9:00', 'Tue, Jan 5, 2027, 9:00 AM'],
    ['last year', '2025-12-31T00:00:00Z', '2025年12月31日(水) 9:00', 'Wed, Dec 31, 2025, 9:00 AM'],
    ['seconds that are not :00', '2026-12-01T00:00:05Z', '12月1日(火) 9:00:05', 'Tue, Dec 1, 9:00:05 AM'],
  ])('%s', (_, iso, ja, en) => {
    expect(formatWhen(iso, { lang: 'ja', ...inTokyo })).toBe(ja);
    expect(formatWhen(iso, { lang: 'en', ...inTokyo })).toBe(en);
  });

  it.each([
    // New York's calendar decides: 2026-11-24T00:00Z is the 23rd there, the same day as NOW.
    ['today there, tomorrow in Tokyo', '2026-11-24T00:00:00Z', '今日 19:00 GMT-5', 'Today, 7:00 PM EST'],
    ['tomorrow there', '2026-11-24T14:00:00Z', '明日 9:00 GMT-5', 'Tomorrow, 9:00 AM EST'],
    ['before the spring change (EST)', '2027-03-14T06:30:00Z', '2027年3月14日(日) 1:30 GMT-5', 'Sun, Mar 14, 2027, 1:30 AM EST'],
    ['after the spring change (EDT)', '2027-03-14T07:30:00Z', '2027年3月14日(日) 3:30 GMT-4', 'Sun, Mar 14, 2027, 3:30 AM EDT'],
  ])('another zone than the user’s is named: %s', (_, iso, ja, en) => {
    const o = { zone: NEW_YORK, userZone: TOKYO, now: NOW };
    expect(formatWhen(iso, { lang: 'ja', ...o })).toBe(ja);
    expect(formatWhen(iso, { lang: 'en', ...o })).toBe(en);
  });

  it('names no zone when it is the user’s, under any of its names', () => {
    const iso = '2026-11-24T00:00:00Z';
    expect(formatWhen(iso, { lang: 'en', zone: NEW_YORK, userZone: NEW_YORK, now: NOW })).toBe('Today, 7:00 PM');
    expect(formatWhen(iso, { lang: 'ja', zone: 'Asia/Calcutta', userZone: 'Asia/Kolkata', now: NOW })).toBe('今日 5:30');
    // No zone of its own: shown in the user's zone, unnamed.
    expect(formatWhen(iso, { lang: 'ja', userZone: NEW_YORK, now: NOW })).toBe('今日 19:00');
  });

  it('joins the day and the time as Intl does in one format', () => {
    const iso = '2026-12-01T10:00:00Z';
    const whole = (locale: string) =>
      new Intl.DateTimeFormat(locale, { timeZone: TOKYO, month: 'short', day: 'numeric', weekday: 'short', hour: 'numeric', minute: '2-digit' }).format(Date.parse(iso));
    expect(formatWhen(iso, { lang: 'ja', ...inTokyo })).toBe(whole('ja-JP'));
    expect(formatWhen(iso, { lang: 'en', ...inTokyo })).toBe(whole('en-US'));
  });

  it('writes nothing for a missing or broken time', () => {
    expect(formatWhen('not a date', { lang: 'ja', ...inTokyo })).toBe('');
  });
});

describe('formatDay', () => {
  it.each([
    ['2026-03-31', true, '3月31日(火)', 'Tue, Mar 31'],
    ['2027-03-31', true, '2027年3月31日(水)', 'Wed, Mar 31, 2027'],
    ['2027-03-31', false, '2027年3月31日', 'Mar 31, 2027'],
    ['2026-11-24', false, '11月24日', 'Nov 24'],
  ])('%s (weekday: %s)', (date, weekday, ja, en) => {
    expect(formatDay(date, { lang: 'ja', now: NOW, zone: TOKYO, weekday })).toBe(ja);
    expect(formatDay(date, { lang: 'en', now: NOW, zone: TOKYO, weekday })).toBe(en);
  });

  it('takes an instant’s day in the zone', () => {
    expect(formatDay('2026-11-24T00:00:00Z', { lang: 'en', now: NOW, zone: NEW_YORK })).toBe('Mon, Nov 23');
    expect(formatDay('2026-11-24T00:00:00Z', { lang: 'en', now: NOW, zone: TOKYO })).toBe('Tue, Nov 24');
  });

  it('judges "this year" in the zone: on New Year’s Eve in New York, Tokyo is already in the next year', () => {
    const newYearTokyo = Date.parse('2026-12-31T16:00:00Z');
    expect(formatDay('2027-01-02', { lang: 'en', now: newYearTokyo, zone: TOKYO })).toBe('Sat, Jan 2');
    expect(formatDay('2027-01-02', { lang: 'en', now: newYearTokyo, zone: NEW_YORK })).toBe('Sat, Jan 2, 2027');
  });
});

describe('whenParts', () => {
  it('splits formatWhen into its day and its time (with the zone)', () => {
    expect(whenParts('2026-11-24T14:00:00Z', { lang: 'ja', zone: NEW_YORK, userZone: TOKYO, now: NOW })).toEqual({ day: '明日', time: '9:00 GMT-5' });
    expect(whenParts('2026-12-01T10:00:00Z', { lang: 'en', zone: TOKYO, userZone: TOKYO, now: NOW })).toEqual({ day: 'Tue, Dec 1', time: '7:00 PM' });
  });
});
