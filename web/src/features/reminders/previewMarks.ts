/**
 * The dialog's preview, explained: the rule's next occurrences next to the same rule without
 * `holidays` and `skip` (the "plain" list, both from POST /api/reminders/preview). An
 * occurrence missing from the plain list was moved by the business-day rule; a plain date
 * missing from the rule's list was dropped, by a skipped date or by "skip holidays". A
 * business-day move's original date is not listed again: the moved one stands for it.
 */
import type { HolidayRule } from '../../lib/types';
import { utcToZoned } from '../../lib/zonedTime';

export type PreviewMark = 'moved' | 'skipped' | 'holiday';

export interface PreviewRow {
  iso: string;
  /** null: on its rule's date; moved: to a business day; skipped: a skipped date; holiday: dropped as a holiday */
  mark: PreviewMark | null;
}

/** Whether the preview needs the plain list to explain itself. */
export function needsPlainPreview(holidays: HolidayRule, skip: readonly string[]): boolean {
  return holidays !== 'ignore' || skip.length > 0;
}

export function markPreview(
  actual: readonly string[],
  plain: readonly string[] | null,
  opts: { skip: readonly string[]; holidays: HolidayRule; timezone: string; complete: boolean },
): PreviewRow[] {
  if (!plain) return actual.map((iso) => ({ iso, mark: null }));
  const actualMs = new Set(actual.map((s) => Date.parse(s)));
  const plainMs = new Set(plain.map((s) => Date.parse(s)));
  const rows: PreviewRow[] = actual.map((iso) => ({ iso, mark: plainMs.has(Date.parse(iso)) ? null : 'moved' }));
  // Dropped dates are listed up to the last shown occurrence (all of them when the series ended there).
  const last = actual.length > 0 ? Date.parse(actual[actual.length - 1]!) : -Infinity;
  for (const iso of plain) {
    const ms = Date.parse(iso);
    if (actualMs.has(ms) || (!opts.complete && ms > last)) continue;
    if (opts.skip.includes(utcToZoned(ms, opts.timezone).date)) rows.push({ iso, mark: 'skipped' });
    else if (opts.holidays === 'skip') rows.push({ iso, mark: 'holiday' });
  }
  return rows.sort((a, b) => Date.parse(a.iso) - Date.parse(b.iso));
}
