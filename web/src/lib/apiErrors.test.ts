// @vitest-environment node
/**
 * Every error the server can send reads in the person's language. The server's field messages
 * are read from the Rust sources themselves (every `errors.add("field", "…")`,
 * `…::field("field", "…")` and the recurrence errors), so a new server message without a
 * mapping fails here; the codes come from docs/spec/api.md and api/src/error.rs.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInstance, type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../locales/en/errors.json';
import ja from '../locales/ja/errors.json';
import { ApiError } from './api';
import { ERROR_CODES, apiErrorText, errorMessage, errorSummary, fieldErrorMessages, fieldErrorText } from './apiErrors';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function rustFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? rustFiles(p) : p.endsWith('.rs') ? [p] : [];
  });
}

/** Placeholders of format!(…) / #[error(…)] filled with plausible values. */
function fill(message: string, field: string): string {
  return message
    .replace(/\{field\}/g, field)
    .replace(/\{other:\?\}/g, '"wrong"')
    .replace(/\{0\}/g, field === 'recurrence' && message.includes('appears more than once') ? 'mon' : '30')
    .replace(/\{given\}/g, '99')
    .replace(/\{[A-Za-z_]+\}/g, '7');
}

/** (field, message) pairs the server sends, read from its sources (test modules left out). */
function serverFieldMessages(): [string, string][] {
  const pairs: [string, string][] = [];
  for (const file of [...rustFiles(join(ROOT, 'common/src')), ...rustFiles(join(ROOT, 'api/src'))]) {
    const text = readFileSync(file, 'utf8').split(/#\[cfg\(test\)\]/)[0]!;
    for (const m of text.matchAll(/(?:errors\.add|Error::field|ApiError::field)\(\s*"([^"]+)",\s*(?:format!\()?"([^"]+)"/g)) {
      pairs.push([m[1]!, fill(m[2]!, m[1]!)]);
    }
    // errors.add(field, format!("{field} must …")) over a list of fields
    for (const m of text.matchAll(/for \(field, value\) in \[([^\]]+)\][\s\S]*?errors\.add\(field, format!\("([^"]+)"/g)) {
      for (const f of m[1]!.matchAll(/\("([a-z_]+)"/g)) pairs.push([f[1]!, fill(m[2]!, f[1]!)]);
    }
    // RecurrenceError's texts reach the client as `recurrence` field errors.
    if (file.endsWith('rules.rs')) {
      const block = text.slice(text.indexOf('pub enum RecurrenceError'));
      for (const m of block.slice(0, block.indexOf('\n}')).matchAll(/#\[error\("([^"]+)"\)\]/g)) pairs.push(['recurrence', fill(m[1]!, 'recurrence')]);
    }
  }
  return pairs;
}

/** serde's own wording for wrong bodies (api/src/extract.rs names the path). */
const SERDE_MESSAGES: [string, string][] = [
  ['body', 'missing field `title`'],
  ['send_at', 'invalid type: integer `5`, expected a string'],
  ['recurrence.kind', 'unknown variant `fortnightly`, expected one of `none`, `hourly`'],
  ['alerts[0].before_minutes', 'invalid value: integer `-1`, expected u32'],
  ['title', 'must not contain NUL characters'],
  ['query', 'Failed to deserialize query string'],
];

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

describe('server field errors', () => {
  const pairs = serverFieldMessages();

  it('reads the server sources (the table below is not empty)', () => {
    expect(pairs.length).toBeGreaterThan(40);
    expect(pairs).toContainEqual(['send_at', 'send_at must be in the future']);
    expect(pairs).toContainEqual(['morning_time', 'morning_time must be a time HH:MM (00:00 to 23:59)']);
    expect(pairs).toContainEqual(['recurrence', 'A custom recurrence needs at least one day.']);
  });

  it('every message the server sends has its own text (not the fallback)', () => {
    const unmapped = pairs.filter(([f, m]) => fieldErrorText(f, m).key.endsWith('.fallback') || fieldErrorText(f, m).key.endsWith('.unknownField'));
    expect(unmapped).toEqual([]);
  });

  it.each([...pairs, ...SERDE_MESSAGES])('ja: %s "%s" reads in Japanese', (field, message) => {
    const text = errorMessage(t.ja, fieldErrorText(field, message));
    expect(text).not.toMatch(ASCII_WORD);
    expect(text).not.toContain('errors:');
    expect(text).toMatch(/[ぁ-んァ-ン一-龯]/);
  });

  it.each([...pairs, ...SERDE_MESSAGES])('en: %s "%s" is a text of the app, not the server', (field, message) => {
    const text = errorMessage(t.en, fieldErrorText(field, message));
    expect(text).not.toContain('errors:');
    expect(text).not.toContain('_');
    expect(text).not.toBe(message);
  });

  it('gives the specific texts with their numbers', () => {
    expect(errorMessage(t.ja, fieldErrorText('send_at', 'send_at must be in the future'))).toBe('未来の日時を指定してください。');
    expect(errorMessage(t.ja, fieldErrorText('title', 'Title must be at most 200 characters'))).toBe('タイトルは200文字以内で入力してください。');
    expect(errorMessage(t.en, fieldErrorText('alerts', 'before_minutes must be between 0 and 10080'))).toBe('An early alert can be at most 7 days before.');
    expect(errorMessage(t.ja, fieldErrorText('evening_time', 'evening_time must be a time HH:MM (00:00 to 23:59)'))).toBe(
      '「今夜の時刻」は00:00〜23:59の時刻で入力してください。',
    );
    expect(errorMessage(t.ja, fieldErrorText('body', 'missing field `title`'))).toBe('「タイトル」を入力してください。');
  });

  it('an unknown message falls back to "check <field>" in the language, an unknown field to "check your entries"', () => {
    expect(errorMessage(t.ja, fieldErrorText('send_at', 'a message from a newer server'))).toBe('「送信日時」を確認してください。');
    expect(errorMessage(t.en, fieldErrorText('recurrence.interval', 'something new'))).toBe('Please check the repeat.');
    expect(errorMessage(t.ja, fieldErrorText('flux_capacitor', 'bad'))).toBe('入力内容を確認してください。');
  });

  it('fieldErrorMessages keys the texts by the field the form knows', () => {
    expect(fieldErrorMessages(t.ja, { 'recurrence.interval': 'x', send_at: 'send_at must be in the future' })).toEqual({
      recurrence: '「繰り返し」を確認してください。',
      send_at: '未来の日時を指定してください。',
    });
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
    const e = new ApiError('Some fields are invalid.', { status: 400, code: 'VALIDATION_FAILED', fields: { timezone: 'Unknown time zone (use an IANA name such as Asia/Tokyo)' } });
    expect(errorSummary(t.ja, e)).toBe('タイムゾーンを一覧から選んでください。');
  });
});
