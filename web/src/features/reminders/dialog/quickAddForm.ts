import type { ReminderInput } from '../../../lib/types';
import { utcToZoned } from '../../../lib/zonedTime';
import type { QuickAddPrefill } from '../../../shared/navState';
import { emptyForm, formToInput, repeatOptionsOf, type ReminderForm } from '../reminderLogic';

/**
 * The create form quick add opens: its title, time, zone and the repeat fields the form has.
 * A phrase with no time keeps the form's default (5 minutes from now).
 */
export function formFromQuickAdd(p: QuickAddPrefill, now: number): ReminderForm {
  const base = emptyForm(p.timezone, now);
  const rec = p.recurrence;
  const when = p.send_at ? utcToZoned(p.send_at, p.timezone) : { date: base.date, time: base.time };
  return {
    ...base,
    title: p.title,
    description: p.description ?? base.description,
    ...when,
    // The dialog's "More options" (interval, monthly day or nth weekday) show what was parsed.
    ...repeatOptionsOf(rec, when.date),
    kind: rec.kind,
    intervalHours: rec.kind === 'hourly' ? rec.interval_hours : base.intervalHours,
    days: rec.kind === 'custom' ? [...rec.days] : [],
  };
}

/**
 * What quick add understood may say more than the form can (every other week, the 2nd Tuesday
 * of the month): while the repeat fields are as the dialog opened, the parsed recurrence is
 * saved unchanged; once the person changes them, the form's recurrence wins.
 */
export function withQuickAddRecurrence(input: ReminderInput, opened: ReminderForm, p: QuickAddPrefill): ReminderInput {
  const untouched = JSON.stringify(input.recurrence) === JSON.stringify(formToInput(opened).recurrence);
  return untouched ? { ...input, recurrence: p.recurrence } : input;
}
