/**
 * A trigger link's page (api.md "Tokens, triggers, export and import"): its data and its
 * buttons, with no other authorization than the link's secret. Through the shared typed client,
 * kept here rather than in lib/api.ts (part of the initial bundle).
 */
import { api } from '../../lib/api';
import type { components } from '../../lib/api-schema';

export type TriggerPageData = components['schemas']['TriggerPage'];
export type TriggerAction = components['schemas']['TriggerAction'];
export type TriggerInput = components['schemas']['TriggerInput'];
export type TriggerActed = components['schemas']['TriggerActed'];
export type TriggerRang = components['schemas']['TriggerRang'];

/** The page's Snooze button: 10 minutes. */
export const PAGE_SNOOZE_MINUTES = 10;

/** GET /api/triggers/{secret}: what the page shows; never acts. 404 unknown. */
export function fetchTriggerPage(secret: string): Promise<TriggerPageData> {
  return api.request<TriggerPageData>('GET', `/api/triggers/${encodeURIComponent(secret)}`);
}

/** The body each of the page's buttons sends. */
export function triggerBody(action: TriggerAction): TriggerInput {
  return action === 'snooze' ? { action, snooze_minutes: PAGE_SNOOZE_MINUTES } : { action };
}

/** POST /t/{secret}: ring 202 `{log_id}`; complete/snooze 200 `{action, changed, next_at}`; 404; 429 with Retry-After. */
export function fireTrigger(secret: string, action: TriggerAction): Promise<TriggerRang | TriggerActed> {
  return api.request<TriggerRang | TriggerActed>('POST', `/t/${encodeURIComponent(secret)}`, { body: triggerBody(action) });
}
