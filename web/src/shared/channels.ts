/**
 * The channel shapes of api.md "Channels", and the person's channels as SWR holds them: in
 * src/shared because two features read them (features/channels manages them; the daily brief in
 * features/settings offers the active ones as a way to send it).
 *
 * TODO: switch to the generated types (`components['schemas']['Channel']`, `CreatedChannel`,
 * `NewChannel`, `ChannelPatch` in lib/api-schema.ts, via lib/types.ts) once the server's OpenAPI
 * document with `/api/channels` is regenerated into src/lib/openapi.json (`npm run api-types`).
 */

import useSWR from 'swr';
import { api } from '../lib/api';
import { swrKeys } from '../lib/swrKeys';

export type ChannelKind = 'ntfy' | 'webhook' | 'telegram' | 'line';
/** `pending`: Telegram or LINE not linked yet; `failing`: its last sends failed. */
export type ChannelStatus = 'pending' | 'active' | 'failing';

/** What a channel is used for: every ring, and/or the fallback when no device showed a ring. */
export interface ChannelUse {
  rings: boolean;
  fallback: boolean;
}

/** A channel in GET /api/channels. */
export interface Channel {
  id: string;
  kind: ChannelKind;
  label: string;
  status: ChannelStatus;
  use: ChannelUse;
  created_at: string;
}

/** POST /api/channels's answer: the channel, with what it shows only once. */
export interface CreatedChannel extends Channel {
  /** a webhook's signing secret (`whsec_…`) */
  secret?: string;
  /** telegram: `https://t.me/<bot>?start=<code>` */
  link?: string;
  /** line: the code to send to the bot */
  code?: string;
  /** line: where to add the bot as a friend */
  friend_url?: string;
}

/** POST /api/channels */
export type NewChannel = { kind: 'ntfy'; url: string; token?: string } | { kind: 'webhook'; url: string } | { kind: 'telegram' } | { kind: 'line' };

/** PUT /api/channels/{id} */
export interface ChannelPatch {
  label?: string;
  use?: Partial<ChannelUse>;
}

/** Every kind, in the order the app offers them. */
export const CHANNEL_KINDS: readonly ChannelKind[] = ['ntfy', 'webhook', 'telegram', 'line'];

/** A channel's longest name (the server's MAX_LABEL_CHARS). */
export const MAX_LABEL_CHARS = 60;

/** At most this many channels per person (409 CHANNEL_LIMIT past it). */
export const MAX_CHANNELS = 10;

/** GET /api/channels: the person's channels. */
export function fetchChannels(): Promise<Channel[]> {
  return api.request<Channel[]>('GET', '/api/channels');
}

/** The person's channels (one SWR entry: the channels section and the daily brief share it). */
export function useChannels() {
  return useSWR(swrKeys.channels(), fetchChannels);
}
