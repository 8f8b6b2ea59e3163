import useSWR from 'swr';
import { api } from '../lib/api';
import { swrKeys } from '../lib/swrKeys';

const fetchSettings = () => api.settings.get();

/**
 * The account's settings (`GET /api/settings`): one SWR entry, `swrKeys.settings()`, for every
 * reader (the reminders page, quick add, the user's zone in `useDates`, the settings page), so one
 * request serves them all and a save through `mutate` reaches them all.
 *
 * - `enabled: false` asks nothing (signed out: there are no settings to read).
 * - A failure is not retried by default: where the settings give a default (a new reminder's
 *   zone, the snooze presets), the reader falls back at once to the device's. The settings page,
 *   which shows them, retries (`retry: true`, SWR's back-off).
 */
export function useSettings({ enabled = true, retry = false }: { enabled?: boolean; retry?: boolean } = {}) {
  return useSWR(enabled ? swrKeys.settings() : null, fetchSettings, { shouldRetryOnError: retry });
}
