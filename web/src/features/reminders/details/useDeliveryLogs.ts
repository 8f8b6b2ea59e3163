import useSWR from 'swr';
import { api } from '../../../lib/api';
import { swrKeys } from '../../../lib/swrKeys';

/**
 * A reminder's delivery log (GET /api/reminders/{id}/logs, newest first), shared by its details
 * and its list card (one request for both). `id` null: not fetched.
 */
export function useDeliveryLogs(id: string | null) {
  return useSWR(id === null ? null : swrKeys.logs(id), ([, rid]) => api.reminders.logs(rid));
}
