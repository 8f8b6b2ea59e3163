/**
 * The person's channels (api.md "Channels") as SWR holds them, and the constants the app uses
 * with them: in src/shared because two features read them (features/channels manages them; the
 * daily brief in features/settings offers the active ones as a way to send it). The shapes are
 * the generated ones (lib/types.ts).
 */
import useSWR from 'swr';
import { api } from '../lib/api';
import { swrKeys } from '../lib/swrKeys';
import type { Channel, ChannelKind } from '../lib/types';

export type { Channel, ChannelKind, ChannelPatch, ChannelStatus, ChannelUse, CreatedChannel, NewChannel } from '../lib/types';

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
