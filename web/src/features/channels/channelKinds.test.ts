import { describe, expect, it } from 'vitest';
import en from '../../locales/en/settings.json';
import ja from '../../locales/ja/settings.json';
import { KIND_PARTS, newChannel, urlError } from './channelKinds';
import { CHANNEL_KINDS } from '../../shared/channels';

function text(locale: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locale);
}

describe('what differs by channel kind', () => {
  it('every kind has its parts, and their texts exist in ja and en', () => {
    expect(Object.keys(KIND_PARTS).sort()).toEqual([...CHANNEL_KINDS].sort());
    for (const part of Object.values(KIND_PARTS)) {
      for (const key of [part.intro, part.url?.label, part.url?.notHttps]) {
        if (!key) continue;
        expect(typeof text(ja, key), `ja settings:${key}`).toBe('string');
        expect(typeof text(en, key), `en settings:${key}`).toBe('string');
      }
    }
  });

  it('a URL is needed, and https, only where the kind takes one', () => {
    expect(urlError('ntfy', '')).toBe('channels.errors.urlRequired');
    expect(urlError('ntfy', 'http://ntfy.sh/t')).toBe('channels.errors.ntfyUrl');
    expect(urlError('webhook', 'ftp://x')).toBe('channels.errors.urlFormat');
    expect(urlError('webhook', 'https://example.com/h')).toBeNull();
    expect(urlError('telegram', '')).toBeNull();
  });

  it('the request carries what the kind takes: an ntfy token only when typed', () => {
    expect(newChannel('ntfy', 'https://ntfy.sh/t', '  ')).toEqual({ kind: 'ntfy', url: 'https://ntfy.sh/t' });
    expect(newChannel('ntfy', 'https://ntfy.sh/t', ' tk ')).toEqual({ kind: 'ntfy', url: 'https://ntfy.sh/t', token: 'tk' });
    expect(newChannel('webhook', 'https://e.example/h', 'ignored')).toEqual({ kind: 'webhook', url: 'https://e.example/h' });
    expect(newChannel('line', 'x', 'y')).toEqual({ kind: 'line' });
  });
});
