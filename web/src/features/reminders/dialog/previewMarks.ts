/**
 * The dialog's preview, explained: the rule's next occurrences next to the same rule without
 * `holidays` and `skip` (the "plain" list, both from POST /api/reminders/preview). An
 * occurrence missing from the plain list was moved by the business-day rule; a plain date
 * missing from the rule's list was dropped, by a skipped date or by "skip holidays". A
 * business-day move's original date is not listed again: the moved one stands for it.
 */
import type { HolidayRule } from '../../../lib/types';
import { utcToZoned } from '../../../lib/zonedTime';

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

/** What the preview shows of the rows: never a past instant (decisions.md "What happened, in the list"). */
export interface UpcomingPreview {
  /** the rows to come: at most `limit` occurrences, with the dropped dates among them */
  rows: PreviewRow[];
  /** how many occurrences were left out because their time had passed */
  passed: number;
  /** nothing is to come: the series ended before `now` (else the list did not reach `now`) */
  ended: boolean;
}

const rings = (r: PreviewRow) => r.mark === null || r.mark === 'moved';

/**
 * The preview's rows from `now` on: an instant already past is left out (counted in `passed`),
 * never listed as to come; then the first `limit` occurrences, and the skipped or holiday dates
 * up to the last of them. `complete`: the rows hold the whole series (it ended within them).
 */
export function upcomingRows(rows: readonly PreviewRow[], now: number, limit: number, complete: boolean): UpcomingPreview {
  const future = rows.filter((r) => Date.parse(r.iso) >= now);
  const passed = rows.filter((r) => rings(r) && Date.parse(r.iso) < now).length;
  const occurrences = future.filter(rings);
  const cutoff = occurrences.length > limit ? Date.parse(occurrences[limit - 1]!.iso) : Infinity;
  return {
    rows: future.filter((r) => Date.parse(r.iso) <= cutoff),
    passed,
    ended: complete && occurrences.length === 0,
  };
}
