import type { DeliveryLog } from '../../../lib/types';
import { latestLog } from '../reminderLogic';

/** How a reminder's last ring reached the person, as its list card says it (`delivery.*` texts). */
export const LAST_DELIVERIES = ['shown', 'emailed', 'sent', 'failed', 'no_devices', 'missed'] as const;
export type LastDelivery = (typeof LAST_DELIVERIES)[number];

/** The ones that mean nobody was reached (shown as a warning). */
export const UNDELIVERED: ReadonlySet<LastDelivery> = new Set(['failed', 'no_devices', 'missed']);

type Entry = Pick<DeliveryLog, 'occurrence_at' | 'status' | 'shown_at' | 'emailed_at'>;

/**
 * How the last ring that went out was delivered: a device showed it; else it was emailed (the
 * email fallback); else sent to a device that has not said it showed it; else failed, had no
 * device, or was missed. A ring still queued (or held for quiet hours), or cancelled, has not
 * rung: the one before it counts. Null when nothing has rung (or only in a state the app does not know).
 */
export function lastDelivery(logs: readonly Entry[]): LastDelivery | null {
  const last = latestLog(logs.filter((l) => l.status !== 'queued' && l.status !== 'held' && l.status !== 'cancelled'));
  if (!last) return null;
  if (last.status === 'shown' || last.shown_at) return 'shown';
  if (last.emailed_at) return 'emailed';
  switch (last.status) {
    case 'sent':
    case 'failed':
    case 'no_devices':
    case 'missed':
      return last.status;
    default:
      return null;
  }
}
