/**
 * Reconciles the server's list with the offline queue: until a queued create or update has
 * reached the server, a fresh server list would drop it from the screen (SWR revalidates on
 * reconnect, often before the queue has run). The list the app shows is the server's, plus
 * the queued creates (temp ids) and with the queued updates applied.
 */
import { isTempId, type PendingAction } from '../../../lib/offline/syncQueue';
import type { Reminder, ReminderInput } from '../../../lib/types';

/** The optimistic reminder a create shows before the server has it. */
export function tempReminder(input: ReminderInput, id: string, userId: string, at: number): Reminder {
  const iso = new Date(at).toISOString();
  const server: Reminder = {
    title: input.title,
    send_at: input.send_at,
    // The server's default: one alert of 0 minutes, the occurrence itself.
    alerts: [{ before_minutes: 0 }],
    // Left out, the server makes it one-time in the account's zone; '' shows as no zone until it answers.
    recurrence: { kind: 'none' },
    timezone: '',
    id,
    user_id: userId,
    scheduled_at: input.send_at,
    overdue: false,
    is_active: true,
    is_archived: false,
    status: 'pending',
    created_at: iso,
    updated_at: iso,
    // The server's defaults: the account's default list ('' until it answers), for everyone in it.
    list_id: '',
    assignees: [],
    rotate: false,
    break_through: false,
    created_by: userId,
  };
  return withInput(server, input);
}

/**
 * `r` with an input's fields, as the server will answer once it has them. A null or absent
 * `alerts`, `recurrence` or `timezone` keeps the reminder's own (the server's default for a new
 * one); `metadata` is kept as sent.
 */
export function withInput(r: Reminder, input: Partial<ReminderInput>): Reminder {
  const { alerts, recurrence, timezone, metadata, list_id, assignees, rotate, break_through, ...rest } = input;
  return {
    ...r,
    ...rest,
    ...(list_id != null ? { list_id } : {}),
    ...(assignees != null ? { assignees } : {}),
    ...(rotate != null ? { rotate } : {}),
    ...(break_through != null ? { break_through } : {}),
    ...(alerts != null ? { alerts } : {}),
    ...(recurrence != null ? { recurrence } : {}),
    ...(timezone != null ? { timezone } : {}),
    ...(metadata !== undefined ? { metadata: metadata as Reminder['metadata'] } : {}),
    ...(input.send_at ? { scheduled_at: input.send_at } : {}),
  };
}

export function overlayPending(list: readonly Reminder[], pending: readonly PendingAction[], userId: string): Reminder[] {
  let out = [...list];
  for (const a of pending) {
    if (!a.reminderId || !a.data || typeof a.data !== 'object') continue;
    const data = a.data as ReminderInput;
    if (a.type === 'create' && isTempId(a.reminderId)) {
      if (!out.some((r) => r.id === a.reminderId)) out.push(tempReminder(data, a.reminderId, userId, a.timestamp));
    } else if (a.type === 'update') {
      out = out.map((r) => (r.id === a.reminderId ? withInput(r, data) : r));
    }
  }
  return out;
}
