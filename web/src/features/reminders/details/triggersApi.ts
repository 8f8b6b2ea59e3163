/**
 * A reminder's trigger links (api.md "Tokens, triggers, export and import"), through the shared
 * typed client but kept here rather than in lib/api.ts, which is part of the initial bundle.
 */
import useSWR from 'swr';
import { api } from '../../../lib/api';
import type { components } from '../../../lib/api-schema';
import { swrKeys } from '../../../lib/swrKeys';

export type Trigger = components['schemas']['Trigger'];
export type CreatedTrigger = components['schemas']['CreatedTrigger'];

/** At most this many per reminder (409 TRIGGER_LIMIT past it). */
export const MAX_TRIGGERS = 5;

const path = (rid: string) => `/api/reminders/${encodeURIComponent(rid)}/triggers`;

/** GET: `[{id, created_at, last_used_at}]`, never the URL. `id` null: not fetched. */
export function useTriggers(id: string | null) {
  return useSWR(id === null ? null : swrKeys.triggers(id), ([, rid]) => api.request<Trigger[]>('GET', path(rid)));
}

/** POST: 201 `{id, url}`, the URL answered only this once; 409 TRIGGER_LIMIT past 5. */
export function createTrigger(rid: string): Promise<CreatedTrigger> {
  return api.request<CreatedTrigger>('POST', path(rid));
}

/** DELETE: 204, the link stops working at once. */
export function deleteTrigger(rid: string, triggerId: string): Promise<void> {
  return api.request<void>('DELETE', `${path(rid)}/${encodeURIComponent(triggerId)}`);
}
