// @vitest-environment node
/**
 * Quick add phrases with what they must give: title, local date and time in the zone, recurrence.
 * ja: now = 2026-11-25 (Wed) 10:00 Asia/Tokyo; en: the same instant, 2026-11-24 (Tue) 20:00 in
 * America/New_York. `null` = the phrase names no time (the dialog's default applies).
 */
import { describe, expect, it } from 'vitest';
import type { Recurrence } from '../../lib/types';
import { zonedToRfc3339 } from '../../lib/zonedTime';
import { parseQuickAdd, type QuickLang } from './parse';

const NOW = Date.parse('2026-11-25T01:00:00Z');
const ZONE: Record<QuickLang, string> = { ja: 'Asia/Tokyo', en: 'America/New_York' };

type Row = [phrase: string, title: string, when: string | null, rec?: Recurrence];
const none: Recurrence = { kind: 'none' };
const daily: Recurrence = { kind: 'daily' };
const weekly: Recurrence = { kind: 'weekly' };
const weekdays: Recurrence = { kind: 'weekdays' };
const monthly: Recurrence = { kind: 'monthly' };
const yearly: Recurrence = { kind: 'yearly' };
const hourly = (n: number): Recurrence => ({ kind: 'hourly', interval_hours: n });
const custom = (...days: Extract<Recurrence, { kind: 'custom' }>['days']): Recurrence => ({ kind: 'custom', days });
const day = (d: number, interval?: number): Recurrence => ({ kind: 'monthly', ...(interval ? { interval } : {}), day: d });
const nth = (week: number, weekday: Extract<Recurrence, { kind: 'custom' }>['days'][number]): Recurrence => ({ kind: 'monthly', week, weekday });

const JA: Row[] = [
  // the spec's examples
  ['明日9時 薬', '薬', '2026-11-26 09:00'],
  ['毎週月曜8時 ゴミ出し', 'ゴミ出し', '2026-11-30 08:00', weekly],
  ['3時間後', '', '2026-11-25 13:00'],
  ['平日7時半', '', '2026-11-26 07:30', weekdays],
  // relative
  ['20分後 お茶', 'お茶', '2026-11-25 10:20'],
  ['30分後に電話', '電話', '2026-11-25 10:30'],
  ['5分後', '', '2026-11-25 10:05'],
  ['1時間後 会議', '会議', '2026-11-25 11:00'],
  ['1時間30分後', '', '2026-11-25 11:30'],
  ['90分後', '', '2026-11-25 11:30'],
  ['3日後 返却', '返却', '2026-11-28 09:00'],
  ['3日後 14時 返却', '返却', '2026-11-28 14:00'],
  ['2週間後 歯医者', '歯医者', '2026-12-09 09:00'],
  // days
  ['明日', '', '2026-11-26 09:00'],
  ['明日9時に薬を飲む', '薬を飲む', '2026-11-26 09:00'],
  ['薬を飲む 明日9時', '薬を飲む', '2026-11-26 09:00'],
  ['明日 0時', '', '2026-11-26 00:00'],
  ['明日の朝 ジョギング', 'ジョギング', '2026-11-26 08:00'],
  ['明日の夜8時 映画', '映画', '2026-11-26 20:00'],
  ['明日午前7時', '', '2026-11-26 07:00'],
  ['明日 7:30 ジム', 'ジム', '2026-11-26 07:30'],
  ['あした7時', '', '2026-11-26 07:00'],
  ['明後日の午後3時に歯医者', '歯医者', '2026-11-27 15:00'],
  ['あさって 10時', '', '2026-11-27 10:00'],
  ['今日 18時 夕飯', '夕飯', '2026-11-25 18:00'],
  ['本日15時', '', '2026-11-25 15:00'],
  ['今日 8時', '', '2026-11-25 08:00'], // a said "today" stays; the dialog says it has passed
  ['今夜 ゴミ出し', 'ゴミ出し', '2026-11-25 18:00'],
  ['今夜9時 電話', '電話', '2026-11-25 21:00'],
  ['来週月曜 会議', '会議', '2026-11-30 09:00'],
  ['来週金曜 19時 飲み会', '飲み会', '2026-12-04 19:00'],
  ['今週金曜', '', '2026-11-27 09:00'],
  ['再来週月曜', '', '2026-12-07 09:00'],
  ['土曜日', '', '2026-11-28 09:00'],
  ['金曜 15:30 美容院', '美容院', '2026-11-27 15:30'],
  ['水曜 9時 会議', '会議', '2026-12-02 09:00'], // today, but 9:00 has passed: next week
  ['水曜 11時 会議', '会議', '2026-11-25 11:00'],
  ['12月1日 10時 支払い', '支払い', '2026-12-01 10:00'],
  ['12/24 19時 ディナー', 'ディナー', '2026-12-24 19:00'],
  ['1月5日 仕事始め', '仕事始め', '2027-01-05 09:00'],
  ['11月25日 9時', '', '2027-11-25 09:00'], // passed this year: next year's
  ['11月20日', '', '2027-11-20 09:00'],
  // times
  ['9時半 散歩', '散歩', '2026-11-26 09:30'],
  ['11時 散歩', '散歩', '2026-11-25 11:00'],
  ['9時', '', '2026-11-26 09:00'],
  ['10時', '', '2026-11-26 10:00'], // exactly now is not ahead
  ['10時1分', '', '2026-11-25 10:01'],
  ['23時59分 日記', '日記', '2026-11-25 23:59'],
  ['正午 ランチ', 'ランチ', '2026-11-25 12:00'],
  ['お昼 ランチ', 'ランチ', '2026-11-25 12:00'],
  ['午後3時 電話', '電話', '2026-11-25 15:00'],
  ['午後3時半', '', '2026-11-25 15:30'],
  ['午前9時', '', '2026-11-26 09:00'],
  ['午前0時 バックアップ', 'バックアップ', '2026-11-26 00:00'],
  ['午後12時', '', '2026-11-25 12:00'],
  ['午前12時', '', '2026-11-26 00:00'],
  ['夜9時 ストレッチ', 'ストレッチ', '2026-11-25 21:00'],
  ['朝6時 ランニング', 'ランニング', '2026-11-26 06:00'],
  ['夕方5時 買い物', '買い物', '2026-11-25 17:00'],
  ['3時', '', '2026-11-26 03:00'],
  ['7:30 起きる', '起きる', '2026-11-26 07:30'],
  ['8:15 朝礼', '朝礼', '2026-11-26 08:15'],
  ['２３時　日記', '日記', '2026-11-25 23:00'],
  ['明日１０時', '', '2026-11-26 10:00'],
  // daily
  ['毎日 薬', '薬', '2026-11-26 09:00', daily],
  ['毎日21時 日記', '日記', '2026-11-25 21:00', daily],
  ['毎日 7:00', '', '2026-11-26 07:00', daily],
  ['毎朝 水を飲む', '水を飲む', '2026-11-26 08:00', daily],
  ['毎朝7時 体重', '体重', '2026-11-26 07:00', daily],
  ['毎晩 歯磨き', '歯磨き', '2026-11-25 18:00', daily],
  ['隔日 ジョギング', 'ジョギング', '2026-11-26 09:00', { kind: 'daily', interval: 2 }],
  ['3日ごと 水やり', '水やり', '2026-11-26 09:00', { kind: 'daily', interval: 3 }],
  ['7日ごと', '', '2026-11-26 09:00', { kind: 'daily', interval: 7 }],
  // weekdays
  ['平日 日報', '日報', '2026-11-26 09:00', weekdays],
  ['平日の7時', '', '2026-11-26 07:00', weekdays],
  ['平日 午前10時', '', '2026-11-26 10:00', weekdays],
  ['平日11時 朝会', '朝会', '2026-11-25 11:00', weekdays],
  // weekly
  ['毎週 報告', '報告', '2026-11-26 09:00', weekly],
  ['毎週 日報を書く', '日報を書く', '2026-11-26 09:00', weekly],
  ['毎週水曜', '', '2026-12-02 09:00', weekly],
  ['毎週水曜 10時半', '', '2026-11-25 10:30', weekly],
  ['毎週金曜 17時 週報', '週報', '2026-11-27 17:00', weekly],
  ['毎週日曜 掃除', '掃除', '2026-11-29 09:00', weekly],
  ['ゴミ出し 毎週月曜 8時', 'ゴミ出し', '2026-11-30 08:00', weekly],
  ['毎週月曜の8時にゴミ出し', 'ゴミ出し', '2026-11-30 08:00', weekly],
  ['毎週月・水 ジム', 'ジム', '2026-11-30 09:00', custom('mon', 'wed')],
  ['毎週月・水 19時 ジム', 'ジム', '2026-11-25 19:00', custom('mon', 'wed')],
  ['毎週火曜と木曜 ピアノ', 'ピアノ', '2026-11-26 09:00', custom('tue', 'thu')],
  ['毎週土日 買い出し', '買い出し', '2026-11-28 09:00', custom('sat', 'sun')],
  ['毎週月水金', '', '2026-11-27 09:00', custom('mon', 'wed', 'fri')],
  ['隔週火曜 ヨガ', 'ヨガ', '2026-12-01 09:00', { kind: 'weekly', interval: 2 }],
  ['隔週(火曜) ヨガ', 'ヨガ', '2026-12-01 09:00', { kind: 'weekly', interval: 2 }],
  ['隔週', '', '2026-11-26 09:00', { kind: 'weekly', interval: 2 }],
  ['2週間ごと 月曜', '', '2026-11-30 09:00', { kind: 'weekly', interval: 2 }],
  // monthly
  ['毎月 家計簿', '家計簿', '2026-11-26 09:00', monthly],
  ['毎月1日 家賃', '家賃', '2026-12-01 09:00', day(1)],
  ['毎月15日 カード払い', 'カード払い', '2026-12-15 09:00', day(15)],
  ['毎月25日 給料日', '給料日', '2026-12-25 09:00', day(25)],
  ['毎月25日 12時', '', '2026-11-25 12:00', day(25)],
  ['毎月10日 19時', '', '2026-12-10 19:00', day(10)],
  ['毎月31日', '', '2026-11-30 09:00', day(31)], // November has no 31st: its last day
  ['毎月末 請求書', '請求書', '2026-11-30 09:00', day(-1)],
  ['毎月末日 18時', '', '2026-11-30 18:00', day(-1)],
  ['毎月第2火曜 10時 資源ごみ', '資源ごみ', '2026-12-08 10:00', nth(2, 'tue')],
  ['毎月第1月曜 朝会', '朝会', '2026-12-07 09:00', nth(1, 'mon')],
  ['第3水曜 19時 読書会', '読書会', '2026-12-16 19:00', nth(3, 'wed')],
  ['毎月第5金曜', '', '2027-01-29 09:00', nth(5, 'fri')], // the first month with a 5th Friday
  ['毎月の最終金曜 飲み会', '飲み会', '2026-11-27 09:00', nth(-1, 'fri')],
  ['最終金曜', '', '2026-11-27 09:00', nth(-1, 'fri')],
  ['隔月', '', '2026-11-26 09:00', { kind: 'monthly', interval: 2 }],
  ['3ヶ月ごと 点検', '点検', '2026-11-26 09:00', { kind: 'monthly', interval: 3 }],
  // yearly
  ['毎年 健康診断', '健康診断', '2026-11-26 09:00', yearly],
  ['毎年12月25日 クリスマス', 'クリスマス', '2026-12-25 09:00', yearly],
  ['毎年3月1日', '', '2027-03-01 09:00', yearly],
  ['毎年 11月25日 記念日', '記念日', '2027-11-25 09:00', yearly],
  // hourly
  ['3時間ごと 水分補給', '水分補給', '2026-11-25 13:00', hourly(3)],
  ['2時間おき 休憩', '休憩', '2026-11-25 12:00', hourly(2)],
  ['12時間ごと', '', '2026-11-25 22:00', hourly(12)],
  ['24時間ごと', '', '2026-11-26 10:00', hourly(24)],
  ['毎時', '', '2026-11-25 11:00', hourly(1)],
  // only a title
  ['牛乳を買う', '牛乳を買う', null],
  ['部屋の掃除', '部屋の掃除', null],
  ['本を読む', '本を読む', null],
  ['  洗濯  ', '洗濯', null],
  // English on a Japanese page
  ['tomorrow 9am take medicine', 'take medicine', '2026-11-26 09:00'],
];

const EN: Row[] = [
  // the spec's examples
  ['tomorrow 9am take medicine', 'take medicine', '2026-11-25 09:00'],
  ['every weekday at 7:30', '', '2026-11-25 07:30', weekdays],
  ['in 20 minutes', '', '2026-11-24 20:20'],
  // relative
  ['in 3 hours call Tokyo', 'call Tokyo', '2026-11-24 23:00'],
  ['in 1 hour', '', '2026-11-24 21:00'],
  ['in an hour stretch', 'stretch', '2026-11-24 21:00'],
  ['in half an hour tea', 'tea', '2026-11-24 20:30'],
  ['in 90 minutes', '', '2026-11-24 21:30'],
  ['in 2 hours 30 minutes', '', '2026-11-24 22:30'],
  ['in 5 minutes', '', '2026-11-24 20:05'],
  ['in 10 mins', '', '2026-11-24 20:10'],
  ['in 2 hrs', '', '2026-11-24 22:00'],
  ['in 2 days return book', 'return book', '2026-11-26 09:00'],
  ['in 1 week', '', '2026-12-01 09:00'],
  // days
  ['tomorrow', '', '2026-11-25 09:00'],
  ['tomorrow at noon', '', '2026-11-25 12:00'],
  ['remind me to call mom tomorrow at 5pm', 'call mom', '2026-11-25 17:00'],
  ['call mom at 5pm tomorrow', 'call mom', '2026-11-25 17:00'],
  ['the day after tomorrow dentist', 'dentist', '2026-11-26 09:00'],
  ['tonight at 9 call dad', 'call dad', '2026-11-24 21:00'],
  ['this evening at 9:30', '', '2026-11-24 21:30'],
  ['tomorrow morning run', 'run', '2026-11-25 08:00'],
  ['tomorrow evening dinner', 'dinner', '2026-11-25 18:00'],
  ['next Monday team meeting', 'team meeting', '2026-11-30 09:00'],
  ['next Monday at 10am', '', '2026-11-30 10:00'],
  ['Friday 3pm haircut', 'haircut', '2026-11-27 15:00'],
  ['tuesday 9am', '', '2026-12-01 09:00'], // today, but 9am has passed: next week
  ['tuesday 9pm', '', '2026-11-24 21:00'],
  ['sat 10am market', 'market', '2026-11-28 10:00'],
  ['wed at 8:00', '', '2026-11-25 08:00'],
  ['dec 25 gifts', 'gifts', '2026-12-25 09:00'],
  ['December 31 11:59pm countdown', 'countdown', '2026-12-31 23:59'],
  ['Jan 5 back to work', 'back to work', '2027-01-05 09:00'],
  ['pay bill on Dec 1', 'pay bill', '2026-12-01 09:00'],
  // times
  ['3:15pm dentist', 'dentist', '2026-11-25 15:15'],
  ['9pm dentist', 'dentist', '2026-11-24 21:00'],
  ['10:45pm', '', '2026-11-24 22:45'],
  ['8pm', '', '2026-11-25 20:00'], // exactly now is not ahead
  ['noon lunch', 'lunch', '2026-11-25 12:00'],
  ['at noon lunch', 'lunch', '2026-11-25 12:00'],
  ['midnight backup', 'backup', '2026-11-25 00:00'],
  ['12am backup', 'backup', '2026-11-25 00:00'],
  ['12pm', '', '2026-11-25 12:00'],
  ['7:30 wake up', 'wake up', '2026-11-25 07:30'],
  ['8:30', '', '2026-11-25 08:30'],
  ['at 7 run', 'run', '2026-11-25 07:00'],
  ['9 am meeting', 'meeting', '2026-11-25 09:00'],
  ['9:30 a.m. call', 'call', '2026-11-25 09:30'],
  // daily
  ['every day water plants', 'water plants', '2026-11-25 09:00', daily],
  ['every day at 10pm journal', 'journal', '2026-11-24 22:00', daily],
  ['daily at 8:00 news', 'news', '2026-11-25 08:00', daily],
  ['take medicine every day at 8am', 'take medicine', '2026-11-25 08:00', daily],
  ['every morning vitamins', 'vitamins', '2026-11-25 08:00', daily],
  ['every evening walk the dog', 'walk the dog', '2026-11-25 18:00', daily],
  ['every night at 10 read', 'read', '2026-11-24 22:00', daily],
  ['every other day run', 'run', '2026-11-25 09:00', { kind: 'daily', interval: 2 }],
  ['every 3 days water', 'water', '2026-11-25 09:00', { kind: 'daily', interval: 3 }],
  // weekdays
  ['every weekday', '', '2026-11-25 09:00', weekdays],
  ['every weekday 8am standup', 'standup', '2026-11-25 08:00', weekdays],
  ['weekdays at 6:45 alarm', 'alarm', '2026-11-25 06:45', weekdays],
  ['every workday at 9pm', '', '2026-11-24 21:00', weekdays],
  // weekly
  ['every Monday trash', 'trash', '2026-11-30 09:00', weekly],
  ['every Monday at 8 trash', 'trash', '2026-11-30 08:00', weekly],
  ['every Friday at 5pm report', 'report', '2026-11-27 17:00', weekly],
  ['every Tuesday 9pm', '', '2026-11-24 21:00', weekly],
  ['every Tuesday 8am', '', '2026-12-01 08:00', weekly],
  ['Mondays 9am piano', 'piano', '2026-11-30 09:00', weekly],
  ['weekly review', 'review', '2026-11-25 09:00', weekly],
  ['every week on Thursday', '', '2026-11-26 09:00', weekly],
  ['every Mon and Wed gym', 'gym', '2026-11-25 09:00', custom('mon', 'wed')],
  ['every Mon, Wed and Fri gym', 'gym', '2026-11-25 09:00', custom('mon', 'wed', 'fri')],
  ['every Saturday and Sunday', '', '2026-11-28 09:00', custom('sat', 'sun')],
  ['every other week on Tue yoga', 'yoga', '2026-12-01 09:00', { kind: 'weekly', interval: 2 }],
  ['every other Tuesday', '', '2026-12-01 09:00', { kind: 'weekly', interval: 2 }],
  ['every other week', '', '2026-11-25 09:00', { kind: 'weekly', interval: 2 }],
  ['every 2 weeks payroll', 'payroll', '2026-11-25 09:00', { kind: 'weekly', interval: 2 }],
  ['biweekly sync', 'sync', '2026-11-25 09:00', { kind: 'weekly', interval: 2 }],
  // monthly
  ['every month', '', '2026-11-25 09:00', monthly],
  ['monthly report', 'report', '2026-11-25 09:00', monthly],
  ['every other month', '', '2026-11-25 09:00', { kind: 'monthly', interval: 2 }],
  ['every 3 months', '', '2026-11-25 09:00', { kind: 'monthly', interval: 3 }],
  ['every month on the 1st rent', 'rent', '2026-12-01 09:00', day(1)],
  ['pay rent every month on the 1st', 'pay rent', '2026-12-01 09:00', day(1)],
  ['every month on the 15th', '', '2026-12-15 09:00', day(15)],
  ['every month on the 24th at 9pm', '', '2026-11-24 21:00', day(24)],
  ['on the 1st of every month rent', 'rent', '2026-12-01 09:00', day(1)],
  ['monthly on the 31st', '', '2026-11-30 09:00', day(31)],
  ['every month on the last day invoice', 'invoice', '2026-11-30 09:00', day(-1)],
  ['at the end of every month invoices', 'invoices', '2026-11-30 09:00', day(-1)],
  ['every 2nd Tuesday recycling', 'recycling', '2026-12-08 09:00', nth(2, 'tue')],
  ['every first Monday', '', '2026-12-07 09:00', nth(1, 'mon')],
  ['every 3rd Wednesday book club', 'book club', '2026-12-16 09:00', nth(3, 'wed')],
  ['every 4th Thursday', '', '2026-11-26 09:00', nth(4, 'thu')],
  ['every 5th Friday', '', '2027-01-29 09:00', nth(5, 'fri')],
  ['every last Friday drinks', 'drinks', '2026-11-27 09:00', nth(-1, 'fri')],
  ['on the last Friday of every month', '', '2026-11-27 09:00', nth(-1, 'fri')],
  // yearly
  ['yearly dentist checkup', 'dentist checkup', '2026-11-25 09:00', yearly],
  ['every year birthday', 'birthday', '2026-11-25 09:00', yearly],
  ['annually', '', '2026-11-25 09:00', yearly],
  ['every 2 years', '', '2026-11-25 09:00', { kind: 'yearly', interval: 2 }],
  ['every year on Dec 25', '', '2026-12-25 09:00', yearly],
  ['every year on Nov 24 anniversary', 'anniversary', '2027-11-24 09:00', yearly],
  // hourly
  ['every 3 hours drink water', 'drink water', '2026-11-24 23:00', hourly(3)],
  ['every hour stretch', 'stretch', '2026-11-24 21:00', hourly(1)],
  ['hourly check', 'check', '2026-11-24 21:00', hourly(1)],
  ['every 24 hours', '', '2026-11-25 20:00', hourly(24)],
  ['every 3 hours from 9am', '', '2026-11-25 09:00', hourly(3)],
  // only a title
  ['buy milk', 'buy milk', null],
  ['take out the trash', 'take out the trash', null],
  ['Read a book', 'Read a book', null],
  ['Call May', 'Call May', null],
  // Japanese on an English page (tomorrow in New York)
  ['明日9時 薬', '薬', '2026-11-25 09:00'],
];

function check(lang: QuickLang, [phrase, title, when, rec]: Row) {
  const r = parseQuickAdd(phrase, { now: NOW, timeZone: ZONE[lang], lang });
  expect({ title: r.title, when: r.date && r.time ? `${r.date} ${r.time.slice(0, 5)}` : null, rec: r.recurrence }).toEqual({ title, when, rec: rec ?? none });
  if (when) expect(r.send_at).toBe(zonedToRfc3339({ date: when.slice(0, 10), time: `${when.slice(11)}:00` }, ZONE[lang]));
  else expect(r.send_at).toBeNull();
}

describe('quick add, Japanese (2026-11-25 10:00 Asia/Tokyo)', () => {
  it('has at least 100 phrases', () => expect(JA.length).toBeGreaterThanOrEqual(100));
  it.each(JA)('%s', (...row) => check('ja', row));
});

describe('quick add, English (2026-11-24 20:00 America/New_York)', () => {
  it('has at least 100 phrases', () => expect(EN.length).toBeGreaterThanOrEqual(100));
  it.each(EN)('%s', (...row) => check('en', row));
});

describe('quick add details', () => {
  it('reports what it understood as spans of the input', () => {
    const r = parseQuickAdd('毎週月曜8時 ゴミ出し', { now: NOW, timeZone: 'Asia/Tokyo', lang: 'ja' });
    expect(r.matched.map((s) => '毎週月曜8時 ゴミ出し'.slice(s.start, s.end))).toEqual(['毎週月曜', '8時']);
    expect(r.matched.map((s) => s.kind)).toEqual(['repeat', 'time']);
  });
  it('uses the morning and evening times it is given', () => {
    const o = { now: NOW, timeZone: 'Asia/Tokyo', lang: 'ja' as const, morning: '07:15', evening: '19:30' };
    expect(parseQuickAdd('毎朝 体操', o).time).toBe('07:15:00');
    expect(parseQuickAdd('今夜 電話', o).time).toBe('19:30:00');
  });
  it('keeps the wall-clock time across a DST change (New York, 1 Nov 2026)', () => {
    const now = Date.parse('2026-10-31T16:00:00Z'); // Sat 12:00 EDT
    const r = parseQuickAdd('tomorrow 9am', { now, timeZone: 'America/New_York', lang: 'en' });
    expect(r.send_at).toBe('2026-11-01T09:00:00-05:00');
    const later = parseQuickAdd('in 24 hours', { now, timeZone: 'America/New_York', lang: 'en' });
    expect(later.send_at).toBe('2026-11-01T11:00:00-05:00');
  });
  it('does not depend on the machine time zone for chrono', () => {
    const r = parseQuickAdd('12月1日 10時', { now: NOW, timeZone: 'Asia/Tokyo', lang: 'ja' });
    expect(r.send_at).toBe('2026-12-01T10:00:00+09:00');
  });
});
