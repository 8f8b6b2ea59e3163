// @vitest-environment node
/**
 * Every error the server can send reads in the person's language. Field errors are read by
 * their code: the closed set comes from the OpenAPI document (openapi.json, `FieldCode`), so a
 * new code without texts fails here; the error codes come from docs/spec/api.md and api/src/error.rs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInstance, type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../locales/en/errors.json';
import ja from '../locales/ja/errors.json';
import { ApiError, type FieldDetail } from './api';
import { ERROR_CODES, FIELD_CODES, apiErrorText, errorMessage, errorSummary, fieldErrorMessages, fieldErrorText } from './apiErrors';
import openapi from './openapi.json';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const ASCII_WORD = /[A-Za-z]{2,}/;

let t: Record<'ja' | 'en', TFunction>;
beforeAll(async () => {
  t = { ja: undefined as never, en: undefined as never };
  for (const [lang, res] of [['ja', ja], ['en', en]] as const) {
    const i18n = createInstance();
    await i18n.init({ lng: lang, resources: { [lang]: { errors: res } }, ns: ['errors'], defaultNS: 'errors', interpolation: { escapeValue: false } });
    t[lang] = i18n.t.bind(i18n) as TFunction;
  }
});

/** The field codes the server publishes; a new one fails here until it has its texts. */
const PUBLISHED: string[] = (openapi as { components: { schemas: { FieldCode: { enum: string[] } } } }).components.schemas.FieldCode.enum;

const d = (field: string, code: FieldDetail['code'], params?: Record<string, number>): FieldDetail => ({ field, code, ...(params ? { params } : {}) });
const text = (lang: 'ja' | 'en', detail: FieldDetail) => errorMessage(t[lang], fieldErrorText(detail));

describe('server field errors, by code', () => {
  it('knows every code of the OpenAPI document', () => {
    expect(PUBLISHED.length).toBeGreaterThan(10);
    expect([...FIELD_CODES].sort()).toEqual([...PUBLISHED].sort());
  });

  // A field with no text of its own, with each set of numbers its code may carry.
  const NUMBERS: Record<string, Record<string, number>[]> = {
    too_long: [{ max: 9 }],
    too_short: [{ min: 2 }],
    out_of_range: [{ min: 2, max: 9 }, { max: 9 }, { min: 2 }],
    too_far: [{ years: 3 }, { days: 4 }],
    too_many: [{ max: 9 }],
  };
  const cases = PUBLISHED.flatMap((code) => [undefined, ...(NUMBERS[code] ?? [])].map((params) => [code, params] as const));
  const generic = (lang: 'ja' | 'en', code: string, params: Record<string, number> | undefined) =>
    text(lang, d('speak_titles', code as FieldDetail['code'], params));

  it.each(cases)('ja: %s %o reads in Japanese, names the field and its numbers, never the code', (code, params) => {
    const ja = generic('ja', code, params);
    expect(ja).not.toMatch(ASCII_WORD);
    expect(ja).not.toContain(code);
    expect(ja).not.toContain('{{');
    expect(ja).toContain('「タイトルの読み上げ」');
    expect(ja).not.toBe('「タイトルの読み上げ」を確認してください。');
    for (const v of Object.values(params ?? {})) expect(ja).toContain(String(v));
  });

  it.each(cases)('en: %s %o is a text of the app with its numbers', (code, params) => {
    const en = generic('en', code, params);
    expect(en).not.toContain('errors:');
    expect(en).not.toContain('_');
    expect(en).not.toContain('{{');
    expect(en).toContain('read titles aloud');
    expect(en).not.toBe('Please check the read titles aloud.');
    for (const v of Object.values(params ?? {})) expect(en).toContain(String(v));
  });

  it('a code that speaks of numbers but came without them reads its generic text, not a specific one with a hole', () => {
    expect(text('ja', d('title', 'too_long'))).toBe('「タイトル」が長すぎます。');
  });

  it('gives the specific texts with their numbers', () => {
    expect(text('ja', d('title', 'too_long', { max: 200 }))).toBe('タイトルは200文字以内で入力してください。');
    expect(text('ja', d('send_at', 'not_in_future'))).toBe('未来の日時を指定してください。');
    expect(text('en', d('alerts', 'out_of_range', { min: 0, max: 10080 }))).toBe('An early alert can be at most 7 days before.');
    expect(text('ja', d('evening_time', 'invalid_format'))).toBe('「今夜の時刻」は00:00〜23:59の時刻で入力してください。');
    expect(text('ja', d('send_at', 'required'))).toBe('「送信日時」を入力してください。');
    expect(text('ja', d('timezone', 'unknown_zone'))).toBe('タイムゾーンを一覧から選んでください。');
    expect(text('ja', d('recurrence', 'out_of_range', { min: 1, max: 24 }))).toBe('間隔は1〜24時間で指定してください。');
    expect(text('ja', d('recurrence', 'out_of_range', { min: 1, max: 52 }))).toBe('間隔は1〜52で指定してください。');
    expect(text('ja', d('recurrence', 'out_of_range', { min: 1, max: 1000 }))).toBe('回数は1〜1000で入力してください。');
    expect(text('ja', d('subscription.keys.p256dh', 'invalid_format'))).toContain('通知用の鍵');
  });

  it('says who may be reminded in a shared list, and that turns need two or more', () => {
    expect(text('ja', d('assignees', 'invalid_choice'))).toBe('このリストのメンバーから選んでください。');
    expect(text('en', d('assignees', 'invalid_choice'))).toBe('Choose people who are in this list.');
    expect(text('ja', d('rotate', 'too_short', { min: 2 }))).toBe('順番に担当するには2人以上を選んでください。');
    expect(text('en', d('rotate', 'too_short', { min: 2 }))).toBe('Choose 2 or more people to take turns.');
  });

  it('tells the two repeat_until_done limits apart by their max', () => {
    expect(text('ja', d('repeat_until_done', 'out_of_range', { min: 1, max: 60 }))).toBe('くり返しの間隔は1〜60分で指定してください。');
    expect(text('ja', d('repeat_until_done', 'out_of_range', { min: 1, max: 20 }))).toBe('くり返しの回数は1〜20回で指定してください。');
    expect(text('en', d('repeat_until_done', 'out_of_range', { min: 1, max: 60 }))).toBe('Repeat every 1 to 60 minutes.');
    expect(text('en', d('repeat_until_done', 'out_of_range', { min: 1, max: 20 }))).toBe('Repeat 1 to 20 times.');
    // another max reads the generic range naming the field
    expect(text('ja', d('repeat_until_done', 'out_of_range', { min: 1, max: 30 }))).toBe('「完了までくり返す」は1〜30の範囲で指定してください。');
  });

  it('an unknown code reads "check <field>", an unknown field "check your entries"', () => {
    const newer = (field: string) => d(field, 'from_a_newer_server' as FieldDetail['code']);
    expect(text('ja', newer('send_at'))).toBe('「送信日時」を確認してください。');
    expect(text('en', newer('recurrence.interval'))).toBe('Please check the repeat.');
    expect(text('ja', d('flux_capacitor', 'bad' as FieldDetail['code']))).toBe('入力内容を確認してください。');
  });

  it('fieldErrorMessages keys the texts by the field the form knows, from details', () => {
    const e = { fields: { 'recurrence.kind': 'x', send_at: 'y' }, details: [d('recurrence.kind', 'invalid_choice'), d('send_at', 'not_in_future')] };
    expect(fieldErrorMessages(t.ja, e)).toEqual({ recurrence: '「繰り返し」は選択肢から選んでください。', send_at: '未来の日時を指定してください。' });
  });

  it('without details (an older server, an error kept offline) each field reads "check <field>"', () => {
    expect(fieldErrorMessages(t.ja, { fields: { 'recurrence.interval': 'x', send_at: 'send_at must be in the future' } })).toEqual({
      recurrence: '「繰り返し」を確認してください。',
      send_at: '「送信日時」を確認してください。',
    });
    const old = new ApiError('Some fields are invalid.', { status: 400, code: 'VALIDATION_FAILED', fields: { title: 'Title is required' } });
    expect(errorSummary(t.en, old)).toBe('Please check the title.');
  });
});

describe('error codes', () => {
  // Error codes, not the configuration names api.md also spells in capitals.
  const documented = [...readFileSync(join(ROOT, 'docs/spec/api.md'), 'utf8').matchAll(/`([A-Z]{2,}(?:_[A-Z]+)+)`/g)]
    .map((m) => m[1]!)
    .filter((c) => !c.startsWith('HIBIKI_'));
  const served = [...readFileSync(join(ROOT, 'api/src/error.rs'), 'utf8').matchAll(/"([A-Z]{2,}(?:_[A-Z]+)+)"/g)].map((m) => m[1]!);

  it('knows every code of api.md and of the server', () => {
    expect(documented.length).toBeGreaterThan(10);
    const all = new Set<string>(ERROR_CODES);
    expect([...new Set([...documented, ...served])].filter((c) => !all.has(c))).toEqual([]);
  });

  const codes = [...new Set([...ERROR_CODES, ...documented, ...served, 'HTTP_502', 'SOMETHING_NEW'])];
  it.each(codes)('ja: %s reads in Japanese, never the code', (code) => {
    const e = new ApiError('server English', { status: 400, code });
    const text = errorSummary(t.ja, e);
    expect(text).not.toMatch(ASCII_WORD);
    expect(text).not.toContain(code);
    expect(text).toMatch(/[ぁ-んァ-ン一-龯]/);
    expect(errorSummary(t.en, e)).not.toContain(code);
  });

  it('a rate limit names the wait; a non-API error reads "something went wrong"', () => {
    expect(errorSummary(t.ja, new ApiError('x', { status: 429, code: 'RATE_LIMITED', retryAfter: 42 }))).toContain('42秒');
    expect(apiErrorText(new Error('Authentication required to create reminder')).key).toBe('errors:code.unknown');
  });

  it('a validation failure summarises its first field', () => {
    const e = new ApiError('Some fields are invalid.', {
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: { timezone: 'Unknown time zone (use an IANA name such as Asia/Tokyo)' },
      details: [{ field: 'timezone', code: 'unknown_zone' }],
    });
    expect(errorSummary(t.ja, e)).toBe('タイムゾーンを一覧から選んでください。');
  });
});
