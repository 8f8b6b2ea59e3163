import type { ChannelKind, NewChannel } from '../../shared/channels';

/**
 * What differs by kind when a channel is added: whether it takes a URL (with its label, its
 * example and the error for one that is not https), and the words before the fields. ntfy's
 * steps and access token are its own fields in the form. A new kind is one entry here, its
 * texts in `settings`, and its server side (api.md "Channels").
 */
export const KIND_PARTS: Record<ChannelKind, { url: { label: string; placeholder: string; notHttps: string } | null; intro: string | null }> = {
  ntfy: { url: { label: 'channels.add.ntfyUrl', placeholder: 'https://ntfy.sh/your-topic', notHttps: 'channels.errors.ntfyUrl' }, intro: null },
  webhook: {
    url: { label: 'channels.add.webhookUrl', placeholder: 'https://example.com/hooks/hibiki', notHttps: 'channels.errors.urlFormat' },
    intro: 'channels.add.webhookIntro',
  },
  telegram: { url: null, intro: 'channels.add.telegramIntro' },
  line: { url: null, intro: 'channels.add.lineIntro' },
};

/** The text key of what is wrong with a kind's URL as typed, or null. */
export function urlError(kind: ChannelKind, address: string): string | null {
  const url = KIND_PARTS[kind].url;
  if (!url) return null;
  if (!address) return 'channels.errors.urlRequired';
  return /^https:\/\/\S+$/i.test(address) ? null : url.notHttps;
}

/** The request that adds a channel of `kind` (an ntfy token only when one was typed). */
export function newChannel(kind: ChannelKind, address: string, token: string): NewChannel {
  switch (kind) {
    case 'ntfy':
      return { kind, url: address, ...(token.trim() ? { token: token.trim() } : {}) };
    case 'webhook':
      return { kind, url: address };
    default:
      return { kind };
  }
}
