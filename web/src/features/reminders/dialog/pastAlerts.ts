/**
 * Alerts whose time has already passed (decisions.md "Smaller": past alert times are flagged in
 * the dialog). An alert rings `before` minutes before an occurrence; for the form's first
 * occurrence (its date and time) that instant may already be past, and the server then never
 * rings it (it lists and fires only instants to come). Saving stays allowed.
 */
import { zonedToUtc } from '../../../lib/zonedTime';
import type { ReminderForm } from '../reminderLogic';

export interface PastAlerts {
  /** the alerts (minutes before) whose time for the first occurrence has passed, longest first */
  minutes: number[];
  /** the first occurrence (ms): repeating reminders still ring these alerts before the later ones */
  first: number;
  recurring: boolean;
}

/**
 * The form's alerts that will not ring for its first occurrence because their time is past at
 * `now`. A repeating reminder whose first occurrence is itself past (an edit that keeps an old
 * start) flags none: its alerts ring before the occurrences to come.
 */
export function pastAlerts(form: Pick<ReminderForm, 'date' | 'time' | 'timezone' | 'kind' | 'alerts'>, now: number): PastAlerts | null {
  if (form.alerts.length === 0) return null;
  let first: number;
  try {
    first = zonedToUtc({ date: form.date, time: form.time }, form.timezone);
  } catch {
    return null;
  }
  if (!Number.isFinite(first)) return null;
  const recurring = form.kind !== 'none';
  if (recurring && first <= now) return null;
  const minutes = form.alerts.filter((m) => m > 0 && first - m * 60_000 <= now).sort((a, b) => b - a);
  return minutes.length > 0 ? { minutes, first, recurring } : null;
}
