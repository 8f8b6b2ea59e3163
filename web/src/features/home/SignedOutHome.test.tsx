import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetAuthForTests } from '../../lib/authStore';
import { RECURRENCE_KINDS, type RecurrenceKind } from '../../lib/types';
import { mockFetch, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';

// Every schedule Hibiki has (the reminder dialog's kinds and shapes), as the home page words it.
const KINDS: Record<'ja' | 'en', Record<RecurrenceKind, string[]>> = {
  en: {
    none: ['One-time'],
    hourly: ['every N hours'],
    daily: ['every N days'],
    weekly: ['weekly'],
    weekdays: ['on weekdays'],
    custom: ['chosen days of the week'],
    monthly: ['monthly', 'on a date', 'the last day', 'the second Tuesday'],
    yearly: ['yearly'],
  },
  ja: {
    none: ['一回きり'],
    hourly: ['N時間ごと'],
    daily: ['N日ごと'],
    weekly: ['毎週'],
    weekdays: ['平日'],
    custom: ['曜日指定'],
    monthly: ['毎月', '日付', '月末', '第2火曜日'],
    yearly: ['毎年'],
  },
};
const SHAPES = {
  en: ['End on a date', 'a number of times', 'skip dates', 'Japanese public holidays', 'business day before or after', 'alerts before', 'repeat until done'],
  ja: ['終了日', '回数', '除外する日', '祝日のスキップ', '前後の営業日', '事前のお知らせ', '完了するまでのくり返し'],
};

beforeEach(() => resetAuthForTests({ status: 'signedOut' }));

describe('the signed-out home lists the schedules Hibiki has', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: every kind of repeat and every option`, async () => {
      mockFetch({});
      renderApp(lang === 'ja' ? '/' : '/en');
      const card = (await screen.findByRole('heading', { name: tr(lang, 'home:features.schedule.title') })).closest('article')!;
      expect(Object.keys(KINDS[lang]).sort()).toEqual([...RECURRENCE_KINDS].sort());
      for (const words of [...Object.values(KINDS[lang]).flat(), ...SHAPES[lang]]) expect(card).toHaveTextContent(words);
    });
  }
});
