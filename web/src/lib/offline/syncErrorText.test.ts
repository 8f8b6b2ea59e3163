// @vitest-environment node
import { createInstance, type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import enErrors from '../../locales/en/errors.json';
import enOffline from '../../locales/en/offline.json';
import jaErrors from '../../locales/ja/errors.json';
import jaOffline from '../../locales/ja/offline.json';
import { ApiError } from '../api';
import { syncErrorNotification } from './syncErrorText';

async function tFor(lang: 'ja' | 'en'): Promise<TFunction> {
  const i18n = createInstance();
  const resources = lang === 'ja' ? { offline: jaOffline, errors: jaErrors } : { offline: enOffline, errors: enErrors };
  await i18n.init({ lng: lang, resources: { [lang]: resources }, interpolation: { escapeValue: false } });
  return i18n.t.bind(i18n) as TFunction;
}

const refused = new ApiError('Some fields are invalid.', {
  status: 400,
  code: 'VALIDATION_FAILED',
  fields: { send_at: 'send_at must be in the future' },
  details: [{ field: 'send_at', code: 'not_in_future' }],
});

describe('the "Sync error" notification', () => {
  it('reads in Japanese on a Japanese page: no server English, no action type', async () => {
    const n = syncErrorNotification(await tFor('ja'), { type: 'create', timestamp: 1, retryCount: 5 }, refused);
    expect(n).toEqual({ title: '同期エラー', body: 'オフラインで作成したリマインダーを保存できませんでした。未来の日時を指定してください。' });
  });

  it('reads in English on an English page, with a plain reason for a non-API failure', async () => {
    const n = syncErrorNotification(await tFor('en'), { type: 'delete', reminderId: 'r1', timestamp: 1, retryCount: 5 }, new Error('boom'));
    expect(n.title).toBe('Sync error');
    expect(n.body).toBe('A reminder could not be deleted. Something went wrong. Please try again.');
  });
});
