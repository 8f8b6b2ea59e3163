import type { Alert, EscalateTo, HolidayRule, Recurrence, RecurrenceKind, Reminder, ReminderInput, RepeatUntilDone, Weekday } from '../../lib/types';
import { LOG_STATES, WEEKDAYS } from '../../lib/types';
import { utcToZoned, zonedToRfc3339, zonedToUtc } from '../../lib/zonedTime';

/** The dashboard's "due soon": the next 5 active reminders (product spec section 2, 9). */
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
  /** how many are due soon: the next 5 active ones (`upcoming`), however far away */
  dueSoon: number;
  /** the next 5 active reminders by scheduled_at (an overdue one, whose time is past, first) */
  upcoming: Reminder[];
}

/** Sorts by the next ring, soonest first; completed ones (no next ring) last, as the server does. */
export function byNextRing(a: Pick<Reminder, 'scheduled_at'>, b: Pick<Reminder, 'scheduled_at'>): number {
  if (!a.scheduled_at || !b.scheduled_at) return (a.scheduled_at ? 0 : 1) - (b.scheduled_at ? 0 : 1);
  return Date.parse(a.scheduled_at) - Date.parse(b.scheduled_at);
}

/**
 * Dashboard counts (product spec section 2): active; completed = archived (`archived`, the
 * server's total, when given, else those in `reminders`); due soon = the next 5 active reminders
 * ordered by scheduled time, which are also the list below the counts (`upcoming`); overdue
 * (decisions.md) = one-time ones that fired and got no action.
 */
export function dashboardSummary(reminders: readonly Reminder[], archived?: number, limit = DASHBOARD_UPCOMING): DashboardSummary {
  const active = reminders.filter(isActive);
  const upcoming = [...active].sort(byNextRing).slice(0, limit);
  return {
    active: active.length,
    completed: archived ?? reminders.filter((r) => r.is_archived).length,
    overdue: active.filter((r) => r.overdue === true).length,
    dueSoon: upcoming.length,
    upcoming,
  };
}

export interface ReminderForm {
  title: string;
  description: string;
  /** the list it goes in ('': not chosen, the server's default list) */
  listId: string;
  date: string;
  time: string;
  timezone: string;
  kind: RecurrenceKind;
  intervalHours: number;
  days: Weekday[];
  /** every N days/weeks/months/years (daily, weekly, custom, monthly, yearly) */
  interval: number;
  /** monthly: on a day of the month, on its last day, or on the Nth weekday */
  monthlyBy: MonthlyBy;
  /** monthly on day N; null follows the start date's day (then nothing is sent) */
  monthDay: number | null;
  /** monthly on the Nth weekday: 1..5 or -1 (last) */
  week: number;
  weekday: Weekday;
  end: RecurrenceEnd;
  /** last local date (inclusive), when end is 'until' */
  until: string;
  /** occurrences, when end is 'count' */
  count: number;
  holidays: HolidayRule;
  /** local dates without an occurrence ("Skip next" adds them) */
  skip: string[];
  /** minutes before the time of each earlier ring, longest first (the time itself always rings) */
  alerts: number[];
  /** repeat until done: every N minutes, 0 = off */
  repeatEvery: number;
  /** repeat until done: at most this many repeats after the first ring */
  repeatTimes: number;
  /** repeat until done: where the ring goes further after so many unanswered repeats (up to 3 steps) */
  escalate: EscalationForm[];
  /** in a shared list, who is reminded (user ids, in the order chosen; none: everyone) */
  assignees: string[];
  /** each occurrence goes to the next of `assignees` in turn (two or more) */
  rotate: boolean;
  /** it rings during quiet hours too (medicine, a flight) instead of being held until they end */
  breakThrough: boolean;
}

/** Alerts before the time the dialog offers: 5, 10, 15, 30 min, 1 h, 2 h, 1 day, 2 days, 1 week. */
export const ALERT_PRESETS = [5, 10, 15, 30, 60, 120, 1440, 2880, 10080] as const;
/** Alerts before the time one reminder may have in the dialog (the API's 5 include the one at the time). */
export const MAX_ALERTS_BEFORE = 4;
export const REPEAT_EVERY_CHOICES = [1, 5, 10, 15, 30, 60] as const;
export const REPEAT_TIMES_MAX = 20;
/** Escalation steps one repeat until done may have (api.md). */
export const MAX_ESCALATION_STEPS = 3;
/** Where an escalation step may send the ring, in the dialog's order. */
export const ESCALATE_TO: readonly EscalateTo[] = ['email', 'channels', 'member'];

/** One escalation step as the dialog edits it: after `after` unanswered repeats, to `to` (`memberId`: to a member; '' not chosen). */
export interface EscalationForm {
  after: number;
  to: EscalateTo;
  memberId: string;
}

/** What the alert and repeat fields start as: only the ring at the time, no repeats, no escalation. */
export const DEFAULT_ALARM_OPTIONS = { alerts: [], repeatEvery: 0, repeatTimes: 3, escalate: [] } as const satisfies Partial<ReminderForm>;
const AT_THE_TIME: Alert[] = [{ before_minutes: 0 }];

/** The API's `alerts` for the form, or undefined for the default (at the time only). */
export function buildAlerts(befores: readonly number[]): Alert[] | undefined {
  const sorted = [...new Set(befores.filter((m) => m > 0))].sort((a, b) => b - a);
  return sorted.length === 0 ? undefined : [...sorted.map((before_minutes) => ({ before_minutes })), ...AT_THE_TIME];
}

/** The form's alerts of a stored reminder: the minutes of those before the time, longest first. */
export function alertsOf(alerts: readonly Alert[] | null | undefined): number[] {
  return [...new Set((alerts ?? []).map((a) => a.before_minutes).filter((m) => m > 0))].sort((a, b) => b - a);
}

/**
 * The API's `repeat_until_done` for the form, or null when off; `escalate` only when it has steps
 * (each `member_id` only with `to: member`, as the server wants).
 */
export function buildRepeat(f: Pick<ReminderForm, 'repeatEvery' | 'repeatTimes'> & Partial<Pick<ReminderForm, 'escalate'>>): RepeatUntilDone | null {
  if (f.repeatEvery <= 0) return null;
  const steps = (f.escalate ?? []).map((s) => ({ after_times: s.after, to: s.to, ...(s.to === 'member' ? { member_id: s.memberId } : {}) }));
  return { every_minutes: f.repeatEvery, max_times: f.repeatTimes, ...(steps.length > 0 ? { escalate: steps } : {}) };
}

/** The form's escalation steps of a stored `repeat_until_done`. */
export function escalationOf(repeat: RepeatUntilDone | null | undefined): EscalationForm[] {
  return (repeat?.escalate ?? []).map((s) => ({ after: s.after_times, to: s.to, memberId: s.member_id ?? '' }));
}

/** A new step: one repeat after the last step (within the repeats there are), by email. */
export function nextEscalation(f: Pick<ReminderForm, 'repeatTimes' | 'escalate'>): EscalationForm {
  const last = f.escalate[f.escalate.length - 1];
  return { after: Math.max(1, Math.min(f.repeatTimes, (last?.after ?? 0) + 1)), to: 'email', memberId: '' };
}

/** Fewer repeats: a step after more of them than there are now comes at the last one. */
export function withRepeatTimes<F extends Pick<ReminderForm, 'repeatTimes' | 'escalate'>>(f: F, times: number): F {
  return { ...f, repeatTimes: times, escalate: f.escalate.map((s) => (s.after > times ? { ...s, after: times } : s)) };
}

export type MonthlyBy = 'day' | 'lastDay' | 'weekday';
export type RecurrenceEnd = 'never' | 'until' | 'count';
export const HOLIDAY_RULES: readonly HolidayRule[] = ['ignore', 'skip', 'next_business_day', 'previous_business_day'];
/** 1st..5th and last, for "monthly on the Nth weekday" */
export const WEEKS_OF_MONTH = [1, 2, 3, 4, 5, -1] as const;
export const COUNT_MAX = 1000;
/** The largest `interval` per kind (api.md); hourly uses `interval_hours` instead. */
export const INTERVAL_MAX: Partial<Record<RecurrenceKind, number>> = { daily: 365, weekly: 52, custom: 52, monthly: 12, yearly: 10 };

/** The defaults of the "More options" fields: a form with these sends none of them. */
export const DEFAULT_REPEAT_OPTIONS = {
  interval: 1,
  monthlyBy: 'day',
  monthDay: null,
  week: 1,
  weekday: 'mon',
  end: 'never',
  until: '',
  count: 10,
  holidays: 'ignore',
  skip: [],
} as const satisfies Partial<ReminderForm>;

export type FormErrors = Partial<
  Record<
    'title' | 'description' | 'date' | 'time' | 'intervalHours' | 'days' | 'timezone' | 'interval' | 'monthDay' | 'until' | 'count' | 'recurrence' | 'alerts' | 'repeatTimes' | 'escalate' | 'assignees' | 'rotate' | 'breakThrough',
    string
  >
>;

/** Day of the month (1..31) of a YYYY-MM-DD date, NaN when it is not one. */
export function dayOfMonth(date: string): number {
  return /^\d{4}-\d{2}-(\d{2})$/.test(date) ? Number(date.slice(8)) : NaN;
}

/** The weekday of a YYYY-MM-DD date and which one of the month it is (the 5th counts as the last). */
export function nthWeekdayOf(date: string): { week: number; weekday: Weekday } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const weekday = WEEKDAYS[(new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7]!;
  const week = Math.ceil(d / 7);
  return { week: week === 5 ? -1 : week, weekday };
}

type RecurrenceForm = Pick<ReminderForm, 'kind' | 'intervalHours' | 'days' | 'date'> & Partial<Omit<ReminderForm, 'kind' | 'intervalHours' | 'days' | 'date'>>;

/** The recurrence the form describes, with only the fields that differ from the API's defaults. */
export function buildRecurrence(form: RecurrenceForm): Recurrence {
  const f = { ...DEFAULT_REPEAT_OPTIONS, ...form };
  const interval = f.interval !== 1 && INTERVAL_MAX[f.kind] ? { interval: f.interval } : {};
  let pattern: Recurrence;
  switch (f.kind) {
    case 'none':
      return { kind: 'none' };
    case 'hourly':
      pattern = { kind: 'hourly', interval_hours: f.intervalHours };
      break;
    case 'custom':
      pattern = { kind: 'custom', days: WEEKDAYS.filter((d) => f.days.includes(d)), ...interval };
      break;
    case 'monthly':
      pattern = { kind: 'monthly', ...interval, ...monthlyDay(f) };
      break;
    default:
      pattern = { kind: f.kind, ...interval };
  }
  return {
    ...pattern,
    ...(f.end === 'until' ? { until: f.until } : f.end === 'count' ? { count: f.count } : {}),
    ...(f.skip.length > 0 ? { skip: [...f.skip].sort() } : {}),
    ...(f.holidays !== 'ignore' ? { holidays: f.holidays } : {}),
  };
}

function monthlyDay(f: Pick<ReminderForm, 'monthlyBy' | 'monthDay' | 'week' | 'weekday' | 'date'>) {
  if (f.monthlyBy === 'lastDay') return { day: -1 };
  if (f.monthlyBy === 'weekday') return { week: f.week, weekday: f.weekday };
  // Left out, the server repeats on the start date's day.
  return f.monthDay !== null && f.monthDay !== dayOfMonth(f.date) ? { day: f.monthDay } : {};
}

export function formToInput(f: ReminderForm): ReminderInput {
  const description = f.description.trim();
  const alerts = buildAlerts(f.alerts);
  const repeat = buildRepeat(f);
  return {
    title: f.title.trim(),
    description: description === '' ? null : description,
    send_at: zonedToRfc3339({ date: f.date, time: f.time }, f.timezone),
    timezone: f.timezone,
    recurrence: buildRecurrence(f),
    ...(f.listId ? { list_id: f.listId } : {}),
    // Sent only when they are not the defaults (at the time only; no repeats).
    ...(alerts ? { alerts } : {}),
    ...(repeat ? { repeat_until_done: repeat } : {}),
    // Everyone in the list, taking no turns, unless the person chose.
    ...(f.assignees.length > 0 ? { assignees: [...f.assignees] } : {}),
    ...(f.rotate && f.assignees.length > 1 ? { rotate: true } : {}),
    // Held in quiet hours unless the person chose otherwise.
    ...(f.breakThrough ? { break_through: true } : {}),
  };
}

/**
 * Who is reminded after pressing person `id`: pressed, they join the end of the order (the
 * order of turns); pressed again, they leave it. Fewer than two take no turns.
 */
export function toggleAssignee(f: Pick<ReminderForm, 'assignees' | 'rotate'>, id: string): Pick<ReminderForm, 'assignees' | 'rotate'> {
  const assignees = f.assignees.includes(id) ? f.assignees.filter((a) => a !== id) : [...f.assignees, id];
  return { assignees, rotate: f.rotate && assignees.length > 1 };
}

/** Whose turn the i-th occurrence to come is: the order from `first` (the server's next turn; absent or not in it: the first). */
export function turnOf(order: readonly string[], i: number, first?: string | null): string | undefined {
  if (order.length === 0) return undefined;
  const start = first ? Math.max(0, order.indexOf(first)) : 0;
  return order[(start + i) % order.length];
}

const inRange = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max;

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
  const intervalMax = INTERVAL_MAX[f.kind];
  if (intervalMax && !inRange(f.interval, 1, intervalMax)) e.interval = 'errors.intervalOutOfRange';
  if (f.kind === 'monthly' && f.monthlyBy === 'day' && f.monthDay !== null && !inRange(f.monthDay, 1, 31)) e.monthDay = 'errors.monthDayRange';
  if (f.kind !== 'none' && f.end === 'until') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(f.until)) e.until = 'errors.untilRequired';
    else if (f.until < f.date) e.until = 'errors.untilBeforeStart';
  }
  if (f.kind !== 'none' && f.end === 'count' && !inRange(f.count, 1, COUNT_MAX)) e.count = 'errors.countRange';
  if (f.repeatEvery > 0 && !inRange(f.repeatTimes, 1, REPEAT_TIMES_MAX)) e.repeatTimes = 'errors.repeatTimesRange';
  if (f.repeatEvery > 0 && !e.repeatTimes) {
    if (f.escalate.some((s) => !inRange(s.after, 1, f.repeatTimes))) e.escalate = 'errors.escalateAfterRange';
    else if (f.escalate.some((s) => s.to === 'member' && !s.memberId)) e.escalate = 'errors.escalateMemberRequired';
  }
  if (opts.requireFuture && !e.date && !e.time && !e.timezone) {
    try {
      if (zonedToUtc({ date: f.date, time: f.time }, f.timezone) <= now) e.time = 'errors.mustBeFuture';
    } catch {
      e.time = 'errors.timeRequired';
    }
  }
  return e;
}

/** The form fields each error is about: a server's message for it goes when one of them changes. */
const ERROR_FIELDS: Record<keyof FormErrors, readonly (keyof ReminderForm)[]> = {
  title: ['title'],
  description: ['description'],
  date: ['date'],
  time: ['date', 'time', 'timezone'],
  timezone: ['timezone'],
  intervalHours: ['intervalHours'],
  days: ['days'],
  interval: ['interval'],
  monthDay: ['monthDay'],
  until: ['until', 'date'],
  count: ['count'],
  recurrence: ['kind', 'intervalHours', 'days', 'interval', 'monthlyBy', 'monthDay', 'week', 'weekday', 'end', 'until', 'count', 'holidays', 'skip'],
  alerts: ['alerts'],
  repeatTimes: ['repeatEvery', 'repeatTimes'],
  escalate: ['escalate', 'repeatEvery', 'repeatTimes', 'listId'],
  assignees: ['assignees', 'listId'],
  rotate: ['rotate', 'assignees', 'listId'],
  breakThrough: ['breakThrough'],
};

/** The fields whose values differ between two forms. */
export function changedFormFields(before: ReminderForm, after: ReminderForm): Set<keyof ReminderForm> {
  const keys = Object.keys(after) as (keyof ReminderForm)[];
  return new Set(keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])));
}

/**
 * The errors still to show after the form changed: each shown client error is checked again
 * (it goes once fixed, or says what is wrong now); a server's message goes when its field
 * changes. No new error appears while the person is still typing.
 */
export function recheckErrors(shown: FormErrors, current: FormErrors, changed: ReadonlySet<keyof ReminderForm>): FormErrors {
  const next: FormErrors = {};
  for (const k of Object.keys(shown) as (keyof FormErrors)[]) {
    const message = shown[k]!;
    if (message.startsWith('errors.')) {
      if (current[k]) next[k] = current[k];
    } else if (!ERROR_FIELDS[k].some((f) => changed.has(f))) next[k] = message;
  }
  return next;
}

/**
 * A new form: the next full minute plus 5 minutes (the guide's suggested test reminder), in
 * `listId` ('' = the server's default list).
 */
export function emptyForm(timezone: string, now: number, listId = ''): ReminderForm {
  const start = Math.ceil(now / 60_000) * 60_000 + 5 * 60_000;
  const { date, time } = utcToZoned(start, timezone);
  return { title: '', description: '', listId, date, time, timezone, kind: 'none', intervalHours: 1, days: [], ...DEFAULT_REPEAT_OPTIONS, skip: [], ...DEFAULT_ALARM_OPTIONS, alerts: [], escalate: [], assignees: [], rotate: false, breakThrough: false };
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
    listId: r.list_id ?? '',
    date,
    time,
    timezone,
    kind: rec.kind,
    intervalHours: rec.kind === 'hourly' ? rec.interval_hours : 1,
    days: rec.kind === 'custom' ? [...rec.days] : [],
    ...repeatOptionsOf(rec, date),
    alerts: alertsOf(r.alerts),
    repeatEvery: r.repeat_until_done?.every_minutes ?? 0,
    repeatTimes: r.repeat_until_done?.max_times ?? DEFAULT_ALARM_OPTIONS.repeatTimes,
    escalate: escalationOf(r.repeat_until_done),
    assignees: [...(r.assignees ?? [])],
    rotate: r.rotate === true,
    breakThrough: r.break_through === true,
  };
}

/** The "More options" fields of a stored recurrence (the inverse of buildRecurrence). */
export function repeatOptionsOf(rec: Recurrence, date: string): Omit<ReminderForm, 'title' | 'description' | 'listId' | 'date' | 'time' | 'timezone' | 'kind' | 'intervalHours' | 'days' | 'assignees' | 'rotate' | 'breakThrough' | keyof typeof DEFAULT_ALARM_OPTIONS> {
  const monthly = rec.kind === 'monthly' ? rec : null;
  const nth = monthly?.week != null && monthly.weekday ? { week: monthly.week, weekday: monthly.weekday } : nthWeekdayOf(date);
  return {
    interval: 'interval' in rec && typeof rec.interval === 'number' ? rec.interval : 1,
    monthlyBy: monthly?.day === -1 ? 'lastDay' : monthly?.week != null ? 'weekday' : 'day',
    monthDay: monthly?.day != null && monthly.day > 0 ? monthly.day : null,
    ...nth,
    end: rec.until ? 'until' : rec.count != null ? 'count' : 'never',
    until: rec.until ?? '',
    count: rec.count ?? DEFAULT_REPEAT_OPTIONS.count,
    holidays: rec.holidays ?? 'ignore',
    skip: [...(rec.skip ?? [])],
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
  // Moved to another list (one whose list is not known yet, '', moves only when a list is chosen).
  if (after.list_id && after.list_id !== before.list_id) patch.list_id = after.list_id;
  if (JSON.stringify(after.recurrence) !== JSON.stringify(before.recurrence)) patch.recurrence = after.recurrence;
  // Left out means the default, so a removed setting is sent as the default: at the time only, or null.
  const alerts = (i: ReminderInput) => i.alerts ?? AT_THE_TIME;
  if (JSON.stringify(alerts(after)) !== JSON.stringify(alerts(before))) patch.alerts = alerts(after);
  const repeat = (i: ReminderInput) => i.repeat_until_done ?? null;
  if (JSON.stringify(repeat(after)) !== JSON.stringify(repeat(before))) patch.repeat_until_done = repeat(after);
  // Likewise everyone (no assignees) and no turns.
  const who = (i: ReminderInput) => i.assignees ?? [];
  if (JSON.stringify(who(after)) !== JSON.stringify(who(before))) patch.assignees = who(after);
  if ((after.rotate ?? false) !== (before.rotate ?? false)) patch.rotate = after.rotate ?? false;
  if ((after.break_through ?? false) !== (before.break_through ?? false)) patch.break_through = after.break_through ?? false;
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
