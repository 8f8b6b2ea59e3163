// @vitest-environment node
import { createInstance, type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import enOffline from '../../locales/en/offline.json';
import jaOffline from '../../locales/ja/offline.json';
import { conflictToastText } from './conflictText';
import type { SyncConflict } from './syncConflict';

async function tFor(lang: 'ja' | 'en'): Promise<TFunction> {
  const i18n = createInstance();
  await i18n.init({ lng: lang, resources: { [lang]: { offline: lang === 'ja' ? jaOffline : enOffline } }, interpolation: { escapeValue: false } });
  return i18n.t.bind(i18n) as TFunction;
}

const conflict = (kind: SyncConflict['kind'], reminderId: string, title?: string): SyncConflict => ({
  action: { type: kind === 'deleted' ? 'update' : 'snooze', reminderId, timestamp: 1, retryCount: 0 },
  kind,
  ...(title ? { title } : {}),
});

describe('the conflict toast', () => {
  it('ja: names the reminder, or says it without a title', async () => {
    const t = await tFor('ja');
    expect(conflictToastText(t, [conflict('deleted', 'r1', '牛乳を買う')])).toBe('「牛乳を買う」は他の人が削除していたため、変更は保存されませんでした。');
    expect(conflictToastText(t, [conflict('completed', 'r1', '牛乳を買う')])).toBe('「牛乳を買う」は他の人が完了にしていました。');
    expect(conflictToastText(t, [conflict('deleted', 'r1')])).toBe('他の人が削除していたリマインダーがあったため、変更は保存されませんでした。');
    expect(conflictToastText(t, [conflict('completed', 'r1')])).toBe('他の人がすでに完了にしていたリマインダーがありました。');
  });

  it('en: names the reminder, or says it without a title', async () => {
    const t = await tFor('en');
    expect(conflictToastText(t, [conflict('deleted', 'r1', 'Buy milk')])).toBe('“Buy milk” was deleted by someone else, so your change was not saved.');
    expect(conflictToastText(t, [conflict('completed', 'r1', 'Buy milk')])).toBe('“Buy milk” had already been completed by someone else.');
    expect(conflictToastText(t, [conflict('deleted', 'r1')])).toBe('A reminder had been deleted by someone else, so your change was not saved.');
    expect(conflictToastText(t, [conflict('completed', 'r1')])).toBe('A reminder had already been completed by someone else.');
  });

  it('says each reminder and outcome once, in one toast; nothing for no conflict', async () => {
    const t = await tFor('en');
    expect(conflictToastText(t, [])).toBeNull();
    expect(
      conflictToastText(t, [conflict('deleted', 'r1', 'Milk'), conflict('deleted', 'r1', 'Milk'), conflict('completed', 'r2', 'Bank'), conflict('deleted', 'r3'), conflict('deleted', 'r4')]),
    ).toBe(
      '“Milk” was deleted by someone else, so your change was not saved. “Bank” had already been completed by someone else. A reminder had been deleted by someone else, so your change was not saved.',
    );
  });
});
