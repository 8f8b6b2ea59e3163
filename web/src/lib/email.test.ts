import { describe, expect, it } from 'vitest';
import { assertEmail, validateEmail } from './email';

describe('validateEmail', () => {
  it('requires a value', () => {
    expect(validateEmail('')).toBe('errors.emailRequired');
    expect(validateEmail('   ')).toBe('errors.emailRequired');
  });
  it('requires text@text.text without spaces', () => {
    for (const bad of ['a', 'a@b', '@b.c', 'a@.', 'a b@c.d', 'a@b c.d', 'a@b.']) {
      expect(validateEmail(bad)).toBe('errors.emailInvalid');
    }
    for (const good of ['a@b.c', 'taro.yamada+x@example.co.jp', ' user@example.com ']) {
      expect(validateEmail(good)).toBeNull();
    }
  });
});

describe('assertEmail', () => {
  it('throws the auth helper messages', () => {
    expect(() => assertEmail('')).toThrow('Email address is required');
    expect(() => assertEmail('nope')).toThrow('Invalid email format');
    expect(assertEmail(' a@b.c ')).toBe('a@b.c');
  });
});
