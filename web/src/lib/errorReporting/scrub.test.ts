import { describe, expect, it } from 'vitest';
import { isDroppedError, maskEmails, scrubEvent } from './scrub';

describe('error report scrubbing (spec §8)', () => {
  it('masks an email address down to its domain, wherever it is', () => {
    expect(maskEmails('no reminder for alice.b+x@example.co.jp today')).toBe('no reminder for ***@example.co.jp today');
    const e = scrubEvent({
      message: 'x',
      user: { email: 'bob@example.com', ip_address: '10.0.0.1' },
      breadcrumbs: [{ message: 'signed in as carol@mail.example' }],
    })!;
    expect(e.user).toEqual({ email: '***@example.com' });
    expect(JSON.stringify(e)).not.toMatch(/bob@|carol@|10\.0\.0\.1/);
  });

  it('strips cookies and the authorization header', () => {
    const e = scrubEvent({
      message: 'x',
      request: { url: 'https://h/', cookies: { hibiki_session: 's' }, headers: { Cookie: 'a=b', Authorization: 'Bearer t', 'User-Agent': 'UA' } },
    })!;
    expect(e.request).toEqual({ url: 'https://h/', headers: { 'User-Agent': 'UA' } });
  });

  it.each([
    ['TypeError', 'Failed to fetch dynamically imported module: https://h/assets/Settings-abc.js'],
    ['TypeError', 'error loading dynamically imported module'],
    ['TypeError', 'Importing a module script failed.'],
    ['ChunkLoadError', 'Loading chunk 3 failed.'],
    ['TypeError', 'Failed to fetch'],
    ['TypeError', 'NetworkError when attempting to fetch resource.'],
    ['TypeError', 'Load failed'],
    ['ApiError', 'Network error'],
  ])('drops %s: %s', (type, value) => {
    expect(isDroppedError([{ type, value }])).toBe(true);
    expect(scrubEvent({ exception: { values: [{ type, value }] } })).toBeNull();
  });

  it('keeps other errors', () => {
    expect(isDroppedError([{ type: 'TypeError', value: "Cannot read properties of undefined (reading 'title')" }])).toBe(false);
    expect(scrubEvent({ exception: { values: [{ type: 'Error', value: 'failed to fetch the moon' }] } })).not.toBeNull();
  });
});
