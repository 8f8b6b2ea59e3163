// @vitest-environment node
import { createInstance, type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en/reminders.json';
import ja from '../../locales/ja/reminders.json';
import type { Recurrence } from '../../lib/types';
import { recurrenceText } from './recurrenceText';

const tr: Record<'ja' | 'en', TFunction> = {} as never;
beforeAll(async () => {
  for (const [lang, res] of [['ja', ja], ['en', en]] as const) {
    const i18n = createInstance();
    await i18n.init({ lng: lang, resources: { [lang]: { reminders: res } }, defaultNS: 'reminders', interpolation: { escapeValue: false } });
    tr[lang] = i18n.getFixedT(lang, 'reminders');
  }
});

// The end date shows its year only when it is not this year (2026 here).
const NOW = Date.parse('2026-11-24T03:00:00Z');

const CASES: [Recurrence, string, string][] = [
  [{ kind: 'none' }, 'Does not repeat (one time)', '繰り返しなし（1回のみ）'],
  [{ kind: 'daily' }, 'Daily', '毎日'],
  [{ kind: 'daily', interval: 3 }, 'Every 3 days', '3日ごと'],
  [{ kind: 'weekly' }, 'Weekly', '毎週'],
  [{ kind: 'weekly', interval: 2 }, 'Every 2 weeks', '隔週'],
  [{ kind: 'custom', days: ['tue', 'thu'] }, 'Every Tue, Thu', '毎週 火・木'],
  [{ kind: 'custom', days: ['tue', 'thu'], interval: 2 }, 'Every 2 weeks on Tue, Thu', '隔週の火・木'],
  [{ kind: 'weekdays', holidays: 'skip' }, 'Weekdays only (Mon–Fri) · skips holidays', '平日のみ（月〜金）、祝日を除く'],
  [{ kind: 'monthly' }, 'Monthly', '毎月'],
  [{ kind: 'monthly', week: 2, weekday: 'tue' }, 'Monthly on the 2nd Tuesday', '毎月第2火曜日'],
  [{ kind: 'monthly', week: -1, weekday: 'fri' }, 'Monthly on the last Friday', '毎月最終金曜日'],
  [{ kind: 'monthly', day: -1, interval: 2 }, 'Every 2 months on the last day', '隔月の末日'],
  [{ kind: 'monthly', day: 1 }, 'Monthly on the 1st', '毎月1日'],
  [{ kind: 'monthly', day: 22, interval: 3 }, 'Every 3 months on the 22nd', '3か月ごとの22日'],
  [{ kind: 'monthly', day: 23 }, 'Monthly on the 23rd', '毎月23日'],
  [{ kind: 'monthly', day: 11 }, 'Monthly on the 11th', '毎月11日'],
  [{ kind: 'yearly' }, 'Yearly', '毎年'],
  [{ kind: 'yearly', interval: 2 }, 'Every 2 years', '隔年'],
  [{ kind: 'hourly', interval_hours: 6, count: 1 }, 'Every 6 h · 1 time', '6時間ごと、1回'],
  [
    { kind: 'monthly', week: 2, weekday: 'tue', count: 5, holidays: 'skip' },
    'Monthly on the 2nd Tuesday · 5 times · skips holidays',
    '毎月第2火曜日、5回、祝日を除く',
  ],
  [{ kind: 'daily', until: '2027-03-31', holidays: 'next_business_day' }, 'Daily · until Mar 31, 2027 · holidays: next business day', '毎日、2027年3月31日まで、祝日は翌営業日'],
  [{ kind: 'weekly', until: '2026-12-24' }, 'Weekly · until Dec 24', '毎週、12月24日まで'],
  [{ kind: 'weekly', holidays: 'previous_business_day', skip: ['2027-01-01'] }, 'Weekly · holidays: previous business day', '毎週、祝日は前営業日'],
];

describe('recurrenceText', () => {
  for (const [rec, enText, jaText] of CASES) {
    it(JSON.stringify(rec), () => {
      expect(recurrenceText(rec, tr.en, 'en', NOW, 'Asia/Tokyo')).toBe(enText);
      expect(recurrenceText(rec, tr.ja, 'ja', NOW, 'Asia/Tokyo')).toBe(jaText);
    });
  }
  it('every week of the month and weekday has a word', () => {
    for (const week of [1, 2, 3, 4, 5, -1]) {
      for (const weekday of ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const) {
        for (const lang of ['ja', 'en'] as const) {
          const text = recurrenceText({ kind: 'monthly', week, weekday }, tr[lang], lang);
          expect(text).not.toMatch(/recurrence\.|weekdaysLong\./);
        }
      }
    }
  });
});

describe('a weekly rule names its day, from its first time in its zone', () => {
  // 2030-01-04T00:30Z is Friday in UTC and Friday 09:30 in Tokyo; 2030-01-03T20:00Z is Thursday
  // in UTC and Friday 05:00 in Tokyo.
  it.each([
    [{ kind: 'weekly' }, { at: '2030-01-04T00:30:00Z', zone: 'Asia/Tokyo' }, 'Every Friday', '毎週金曜日'],
    [{ kind: 'weekly' }, { at: '2030-01-03T20:00:00Z', zone: 'Asia/Tokyo' }, 'Every Friday', '毎週金曜日'],
    [{ kind: 'weekly' }, { at: '2030-01-03T20:00:00Z', zone: 'UTC' }, 'Every Thursday', '毎週木曜日'],
    [{ kind: 'weekly', interval: 2 }, { at: '2030-01-04T00:30:00Z', zone: 'Asia/Tokyo' }, 'Every 2 weeks on Fri', '隔週の金曜日'],
  ])('%j at %j', (rec, anchor, enText, jaText) => {
    expect(recurrenceText(rec as Recurrence, tr.en, 'en', NOW, 'Asia/Tokyo', anchor)).toBe(enText);
    expect(recurrenceText(rec as Recurrence, tr.ja, 'ja', NOW, 'Asia/Tokyo', anchor)).toBe(jaText);
  });
  it('without its first time, the rule alone', () => {
    expect(recurrenceText({ kind: 'weekly' } as Recurrence, tr.en, 'en', NOW)).toBe('Weekly');
  });
});
