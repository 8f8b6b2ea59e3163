// @vitest-environment node
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en/reminders.json';
import ja from '../../locales/ja/reminders.json';
import { parseQuickAdd, type QuickLang } from './parse';
import { summaryParts } from './summary';

const NOW = Date.parse('2026-11-25T01:00:00Z');
const ZONE: Record<QuickLang, string> = { ja: 'Asia/Tokyo', en: 'America/New_York' };

async function line(lang: QuickLang, phrase: string) {
  const i18n = createInstance();
  await i18n.init({ lng: lang, resources: { ja: { reminders: ja }, en: { reminders: en } }, defaultNS: 'reminders', interpolation: { escapeValue: false } });
  const r = parseQuickAdd(phrase, { now: NOW, timeZone: ZONE[lang], lang });
  return summaryParts(r, lang, NOW, i18n.getFixedT(lang, 'reminders')).join(' · ');
}

describe('the live result under the box', () => {
  it.each([
    ['ja', '毎週 明日9時 薬', '明日 9:00 · 毎週木曜 · 薬'],
    ['ja', '3時間後', '今日 13:00 · （タイトルなし）'],
    ['ja', '毎月第2火曜 10時 資源ごみ', '12月8日(火) 10:00 · 毎月第2火曜 · 資源ごみ'],
    ['ja', '隔週火曜 ヨガ', '12月1日(火) 9:00 · 隔週火曜 · ヨガ'],
    ['ja', '毎週月・水 ジム', '11月30日(月) 9:00 · 毎週月曜、水曜 · ジム'],
    ['ja', '毎月末 請求書', '11月30日(月) 9:00 · 毎月末日 · 請求書'],
    ['ja', '牛乳を買う', '日時の指定なし · 牛乳を買う'],
    ['en', 'every week tomorrow 9am take medicine', 'Tomorrow, 9:00 AM · every Wednesday · take medicine'],
    ['en', 'every 2nd Tuesday recycling', 'Tue, Dec 8, 9:00 AM · every month on the 2nd Tuesday · recycling'],
    ['en', 'every last Friday drinks', 'Fri, Nov 27, 9:00 AM · every month on the last Friday · drinks'],
    ['en', 'every 3 hours', 'Today, 11:00 PM · every 3 hours · (no title)'],
    ['en', 'every month on the 1st rent', 'Tue, Dec 1, 9:00 AM · every month on day 1 · rent'],
    ['en', 'every Mon and Wed gym', 'Tomorrow, 9:00 AM · every Monday, Wednesday · gym'],
  ] as const)('%s: %s', async (lang, phrase, expected) => {
    expect(await line(lang, phrase)).toBe(expected);
  });
});
