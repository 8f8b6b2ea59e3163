/**
 * The channel calls (api.md "Channels"), through the shared typed client but kept here rather
 * than in lib/api.ts, which is part of the initial bundle (`npm run size`), as
 * features/lists/listsApi.ts is.
 */
import { api } from '../../lib/api';
import type { Channel, ChannelPatch, CreatedChannel, NewChannel } from '../../shared/channels';

/** GET /api/channels, and the SWR entry of the person's channels (src/shared: the daily brief reads them too). */
export { fetchChannels, useChannels } from '../../shared/channels';

const path = (id: string) => `/api/channels/${encodeURIComponent(id)}`;

/**
 * POST /api/channels: 201 the channel (a webhook's `secret` only here); 400 ENDPOINT_REJECTED
 * (an unsafe URL), VALIDATION_FAILED (`url`, `token`), CHANNEL_UNAVAILABLE (Telegram or LINE
 * not enabled by the operator); 409 CHANNEL_LIMIT past 10.
 */
export function createChannel(input: NewChannel): Promise<CreatedChannel> {
  return api.request<CreatedChannel>('POST', '/api/channels', { body: input });
}

/** PUT /api/channels/{id}: rename, or choose what it is used for (only what is given changes). */
export function updateChannel(id: string, patch: ChannelPatch): Promise<Channel> {
  return api.request<Channel>('PUT', path(id), { body: patch });
}

/** DELETE /api/channels/{id}: 204. */
export function deleteChannel(id: string): Promise<void> {
  return api.request<void>('DELETE', path(id));
}

/** POST /api/channels/{id}/test: 202; 429 RATE_LIMITED (once per 60 s, with its retry-after). */
export function testChannel(id: string): Promise<void> {
  return api.request<void>('POST', `${path(id)}/test`);
}
