// @vitest-environment node
import { createInstance, type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en/reminders.json';
import ja from '../../locales/ja/reminders.json';
import { alertText, alertsText, escalationText, nagText } from './alarmText';
import { ALERT_PRESETS } from './reminderLogic';

const tr: Record<'ja' | 'en', TFunction> = {} as never;
beforeAll(async () => {
  for (const [lang, res] of [['ja', ja], ['en', en]] as const) {
    const i18n = createInstance();
    await i18n.init({ lng: lang, resources: { [lang]: { reminders: res } }, defaultNS: 'reminders', interpolation: { escapeValue: false } });
    tr[lang] = i18n.getFixedT(lang, 'reminders');
  }
});

describe('alarm texts', () => {
  it('names each preset', () => {
    expect(ALERT_PRESETS.map((m) => alertText(m, tr.en))).toEqual([
      '5 min before',
      '10 min before',
      '15 min before',
      '30 min before',
      '1 hour before',
      '2 hours before',
      '1 day before',
      '2 days before',
      '1 week before',
    ]);
    expect(ALERT_PRESETS.map((m) => alertText(m, tr.ja))).toEqual(['5分前', '10分前', '15分前', '30分前', '1時間前', '2時間前', '1日前', '2日前', '1週間前']);
  });
  it('lists the alerts before the time, longest first, without the one at the time', () => {
    const alerts = [{ before_minutes: 0 }, { before_minutes: 30 }, { before_minutes: 1440 }];
    expect(alertsText(alerts, tr.en, 'en')).toBe('1 day and 30 min before');
    expect(alertsText(alerts, tr.ja, 'ja')).toBe('1日前・30分前に通知');
    expect(alertsText([10, 60, 2880], tr.en, 'en')).toBe('2 days, 1 hour, and 10 min before');
    expect(alertsText([{ before_minutes: 0 }], tr.en, 'en')).toBeNull();
    expect(alertsText(undefined, tr.ja, 'ja')).toBeNull();
  });
  it('describes repeat until done', () => {
    expect(nagText({ every_minutes: 5, max_times: 3 }, tr.en)).toBe('Repeats every 5 min, up to 3 times');
    expect(nagText({ every_minutes: 1, max_times: 1 }, tr.en)).toBe('Repeats every 1 min, up to 1 time');
    expect(nagText({ every_minutes: 5, max_times: 3 }, tr.ja)).toBe('完了まで5分ごとに最大3回');
    expect(nagText(null, tr.ja)).toBeNull();
  });
  it('describes where repeat until done escalates, a member by name (unknown: "a member of the list")', () => {
    const repeat = {
      every_minutes: 5,
      max_times: 3,
      escalate: [
        { after_times: 1, to: 'email' as const },
        { after_times: 2, to: 'channels' as const },
        { after_times: 3, to: 'member' as const, member_id: 'u2' },
      ],
    };
    const nameOf = (id: string) => (id === 'u2' ? 'aki@example.com' : null);
    expect(escalationText(repeat, tr.en, nameOf)).toBe(
      'Emails you after 1 unanswered repeat · Goes to your channels after 2 unanswered repeats · Tells aki@example.com after 3 unanswered repeats',
    );
    expect(escalationText(repeat, tr.ja, nameOf)).toBe('応答なしで1回くり返したらメール、応答なしで2回くり返したらチャンネルへ、応答なしで3回くり返したらaki@example.comに知らせる');
    expect(escalationText({ ...repeat, escalate: [{ after_times: 2, to: 'member', member_id: 'u9' }] }, tr.en)).toBe('Tells a member of the list after 2 unanswered repeats');
    expect(escalationText({ ...repeat, escalate: [{ after_times: 2, to: 'member', member_id: 'u9' }] }, tr.ja)).toBe('応答なしで2回くり返したらリストのメンバーに知らせる');
    expect(escalationText({ every_minutes: 5, max_times: 3 }, tr.en)).toBeNull();
    expect(escalationText(null, tr.ja)).toBeNull();
  });
});
