/**
 * "Snooze until" instants (decisions.md "Schedules people actually have"): this evening and
 * tomorrow morning at the settings' evening_time / morning_time, or a picked time, all as
 * wall-clock times in the user's time zone (settings.timezone). The server takes an instant in
 * the next 7 days.
 */
import { toRfc3339InZone, utcToZoned, zonedToUtc } from '../../../lib/zonedTime';

/** The settings that place "this evening" and "tomorrow morning". */
export interface SnoozeClock {
  timezone: string;
  morningTime: string;
  eveningTime: string;
}

export const SNOOZE_UNTIL_MAX_MS = 7 * 86_400_000;
/** "This evening" is offered only while it is at least this far ahead (the request needs a future instant). */
export const SNOOZE_UNTIL_MIN_AHEAD_MS = 60_000;

/** The local date `days` after the one of YYYY-MM-DD (calendar arithmetic, no zone). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Today at `eveningTime` ('HH:MM') in `tz`, or null once that is (nearly) past. */
export function thisEvening(now: number, tz: string, eveningTime: string): string | null {
  const today = utcToZoned(now, tz).date;
  const at = zonedToUtc({ date: today, time: eveningTime }, tz);
  return at - now >= SNOOZE_UNTIL_MIN_AHEAD_MS ? toRfc3339InZone(at, tz) : null;
}

/** Tomorrow at `morningTime` ('HH:MM') in `tz`. */
export function tomorrowMorning(now: number, tz: string, morningTime: string): string {
  const tomorrow = addDays(utcToZoned(now, tz).date, 1);
  return toRfc3339InZone(zonedToUtc({ date: tomorrow, time: morningTime }, tz), tz);
}

export type PickedTime = { until: string } | { error: 'errors.snoozeTimeRequired' | 'errors.snoozeInPast' | 'errors.snoozeTooFar' };

/** A datetime-local value ('YYYY-MM-DDTHH:MM') read in `tz`, checked to lie within the next 7 days. */
export function pickedTime(value: string, now: number, tz: string): PickedTime {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)/.exec(value);
  if (!m) return { error: 'errors.snoozeTimeRequired' };
  const at = zonedToUtc({ date: m[1]!, time: m[2]! }, tz);
  if (at - now < SNOOZE_UNTIL_MIN_AHEAD_MS) return { error: 'errors.snoozeInPast' };
  if (at - now > SNOOZE_UNTIL_MAX_MS) return { error: 'errors.snoozeTooFar' };
  return { until: toRfc3339InZone(at, tz) };
}

/** The datetime-local bounds (now .. now + 7 days) in `tz`, for the input's min and max. */
export function pickBounds(now: number, tz: string): { min: string; max: string } {
  const local = (ms: number) => {
    const { date, time } = utcToZoned(ms, tz);
    return `${date}T${time.slice(0, 5)}`;
  };
  return { min: local(now), max: local(now + SNOOZE_UNTIL_MAX_MS) };
}
