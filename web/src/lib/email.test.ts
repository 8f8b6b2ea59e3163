import { describe, expect, it } from 'vitest';
import { emailProblem, validateEmail } from './email';

describe('validateEmail (the login form)', () => {
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

describe('emailProblem (shared by the form and the auth helper)', () => {
  it('says missing, not in form, or nothing', () => {
    expect(emailProblem(' ')).toBe('required');
    expect(emailProblem('nope')).toBe('format');
    expect(emailProblem(' a@b.c ')).toBeNull();
  });
});
