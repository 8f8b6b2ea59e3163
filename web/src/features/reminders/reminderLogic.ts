import type { Recurrence, RecurrenceKind, Reminder, ReminderInput, Weekday } from '../../lib/types';
import { LOG_STATES, WEEKDAYS } from '../../lib/types';
import { utcToZoned, zonedToRfc3339, zonedToUtc } from '../../lib/zonedTime';

export const DASHBOARD_UPCOMING = 5;
export const MAX_ACTIVE_REMINDERS = 100;
export const HOURLY_MIN = 1;
export const HOURLY_MAX = 24;
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 2000;

export function isActive(r: Pick<Reminder, 'is_active' | 'is_archived'>): boolean {
  return r.is_active && !r.is_archived;
}

export interface DashboardSummary {
  active: number;
  completed: number;
  /** one-time reminders that fired and got no action */
  overdue: number;
  upcoming: Reminder[];
}

/** Sorts by the next ring, soonest first; completed ones (no next ring) last, as the server does. */
export function byNextRing(a: Pick<Reminder, 'scheduled_at'>, b: Pick<Reminder, 'scheduled_at'>): number {
  if (!a.scheduled_at || !b.scheduled_at) return (a.scheduled_at ? 0 : 1) - (b.scheduled_at ? 0 : 1);
  return Date.parse(a.scheduled_at) - Date.parse(b.scheduled_at);
}

/** Dashboard counts: active; completed = archived; due soon = next 5 active by scheduled_at. */
export function dashboardSummary(reminders: readonly Reminder[], limit = DASHBOARD_UPCOMING): DashboardSummary {
  const active = reminders.filter(isActive);
  const upcoming = [...active]
    .sort(byNextRing)
    .slice(0, limit);
  return {
    active: active.length,
    completed: reminders.filter((r) => r.is_archived).length,
    overdue: active.filter((r) => r.overdue === true).length,
    upcoming,
  };
}

export interface ReminderForm {
  title: string;
  description: string;
  date: string;
  time: string;
  timezone: string;
  kind: RecurrenceKind;
  intervalHours: number;
  days: Weekday[];
}

export type FormErrors = Partial<Record<'title' | 'description' | 'date' | 'time' | 'intervalHours' | 'days' | 'timezone', string>>;

export function buildRecurrence(f: Pick<ReminderForm, 'kind' | 'intervalHours' | 'days'>): Recurrence {
  switch (f.kind) {
    case 'hourly':
      return { kind: 'hourly', interval_hours: f.intervalHours };
    case 'custom':
      return { kind: 'custom', days: WEEKDAYS.filter((d) => f.days.includes(d)) };
    default:
      return { kind: f.kind };
  }
}

export function formToInput(f: ReminderForm): ReminderInput {
  const description = f.description.trim();
  return {
    title: f.title.trim(),
    description: description === '' ? null : description,
    send_at: zonedToRfc3339({ date: f.date, time: f.time }, f.timezone),
    timezone: f.timezone,
    recurrence: buildRecurrence(f),
  };
}

/** Client-side checks; values are i18n keys in the `reminders` namespace. */
export function validateForm(f: ReminderForm, now: number, opts: { requireFuture: boolean }): FormErrors {
  const e: FormErrors = {};
  const title = f.title.trim();
  if (!title) e.title = 'errors.titleRequired';
  else if (title.length > TITLE_MAX) e.title = 'errors.titleTooLong';
  if (f.description.trim().length > DESCRIPTION_MAX) e.description = 'errors.descriptionTooLong';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(f.date)) e.date = 'errors.dateRequired';
  if (!/^\d{2}:\d{2}(:\d{2})?$/.test(f.time)) e.time = 'errors.timeRequired';
  if (!f.timezone) e.timezone = 'errors.timezoneRequired';
  if (f.kind === 'hourly' && !(Number.isInteger(f.intervalHours) && f.intervalHours >= HOURLY_MIN && f.intervalHours <= HOURLY_MAX)) {
    e.intervalHours = 'errors.intervalRange';
  }
  if (f.kind === 'custom' && f.days.length === 0) e.days = 'errors.daysRequired';
  if (opts.requireFuture && !e.date && !e.time && !e.timezone) {
    try {
      if (zonedToUtc({ date: f.date, time: f.time }, f.timezone) <= now) e.time = 'errors.mustBeFuture';
    } catch {
      e.time = 'errors.timeRequired';
    }
  }
  return e;
}

/** A new form: the next full minute plus 5 minutes (the guide's suggested test reminder). */
export function emptyForm(timezone: string, now: number): ReminderForm {
  const start = Math.ceil(now / 60_000) * 60_000 + 5 * 60_000;
  const { date, time } = utcToZoned(start, timezone);
  return { title: '', description: '', date, time, timezone, kind: 'none', intervalHours: 1, days: [] };
}

export function formFromReminder(r: Reminder, fallbackTz: string): ReminderForm {
  const timezone = r.timezone || fallbackTz;
  // A recurring reminder edits from its next occurrence, not its (maybe long past) first one.
  const recurring = (r.recurrence?.kind ?? 'none') !== 'none';
  const { date, time } = utcToZoned(recurring && r.scheduled_at && !r.snoozed_until ? r.scheduled_at : r.send_at, timezone);
  const rec = r.recurrence ?? { kind: 'none' };
  return {
    title: r.title,
    description: r.description ?? '',
    date,
    time,
    timezone,
    kind: rec.kind,
    intervalHours: rec.kind === 'hourly' ? rec.interval_hours : 1,
    days: rec.kind === 'custom' ? [...rec.days] : [],
  };
}

/**
 * The edit as a patch of only what changed (decisions.md "Editing never traps": only a changed
 * `send_at` must be in the future). `before` is the form the dialog opened with.
 */
export function changedFields(before: ReminderInput, after: ReminderInput): Partial<ReminderInput> {
  const patch: Partial<ReminderInput> = {};
  if (after.title !== before.title) patch.title = after.title;
  if ((after.description ?? null) !== (before.description ?? null)) patch.description = after.description ?? null;
  if (Date.parse(after.send_at) !== Date.parse(before.send_at)) patch.send_at = after.send_at;
  if (after.timezone !== before.timezone) patch.timezone = after.timezone;
  if (JSON.stringify(after.recurrence) !== JSON.stringify(before.recurrence)) patch.recurrence = after.recurrence;
  return patch;
}

/** The most recent delivery (by occurrence time), which Complete/Snooze act on. */
export function latestLog<L extends { occurrence_at: string }>(logs: readonly L[]): L | null {
  let best: L | null = null;
  for (const l of logs) if (!best || Date.parse(l.occurrence_at) > Date.parse(best.occurrence_at)) best = l;
  return best;
}

/** The text key of a delivery state or action, or null for one the app does not know (shown as "unknown", never raw). */
export function logStatusKey(status: string): string | null {
  return (LOG_STATES as readonly string[]).includes(status) ? `details.state.${status}` : null;
}
