import { useEffect, useMemo, useState } from 'react';
import { api } from '../../../lib/api';
import type { ReminderInput } from '../../../lib/types';
import { markPreview, needsPlainPreview, upcomingRows, type PreviewRow } from './previewMarks';
import { formToInput, validateForm, type FormErrors, type ReminderForm } from '../reminderLogic';

const PREVIEW_DEBOUNCE_MS = 400;
const PREVIEW_COUNT = 5;
/** The most the server lists (api.md): asked for when the start is past, to reach the times to come. */
const PREVIEW_MAX = 50;

/** What stops the preview: the first field error, to be named ("choose at least one day"). */
export type PreviewProblem = { field: keyof FormErrors; message: string };

export interface Preview {
  /** the next occurrences (never a past one), with the dropped dates among them */
  rows: PreviewRow[];
  /** occurrences left out because their time has passed */
  passed: number;
  /** with `passed`: the series has nothing to come */
  ended: boolean;
  error: boolean;
  loading: boolean;
  problem: PreviewProblem | null;
}

const EMPTY: Omit<Preview, 'problem'> = { rows: [], passed: 0, ended: false, error: false, loading: false };

/**
 * Next occurrences from POST /api/reminders/preview, debounced. With a holiday rule or skipped
 * dates, the same rule without them is previewed too, to mark what moved or was dropped. The
 * server lists from `send_at` on, which may be past (an edit keeps an old start): past instants
 * are left out and counted (`passed`), and with a past start up to 50 are asked for, so that
 * the times to come are reached.
 */
export function usePreview(form: ReminderForm, enabled: boolean): Preview {
  const [state, setState] = useState<Omit<Preview, 'problem'>>(EMPTY);
  const { input, problem } = useMemo((): { input: string | null; problem: PreviewProblem | null } => {
    if (!enabled) return { input: null, problem: null };
    const errors = validateForm({ ...form, title: form.title.trim() || 'preview' }, 0, { requireFuture: false });
    // What stops the preview, so that it can say so ("choose at least one day").
    const first = (Object.keys(errors) as (keyof FormErrors)[])[0];
    if (first) return { input: null, problem: { field: first, message: errors[first]! } };
    try {
      // The list and its people do not change when it rings: choosing them asks for no new preview.
      return { input: JSON.stringify(formToInput({ ...form, title: form.title.trim() || 'preview', listId: '', assignees: [], rotate: false })), problem: null };
    } catch {
      return { input: null, problem: { field: 'date', message: 'errors.dateRequired' } };
    }
  }, [form, enabled]);

  useEffect(() => {
    if (!input) {
      setState(EMPTY);
      return;
    }
    let cancelled = false;
    setState((s) => ({ ...s, loading: true }));
    const h = setTimeout(() => {
      const rule = JSON.parse(input) as ReminderInput;
      const rec = rule.recurrence ?? { kind: 'none' };
      const skip = rec.skip ?? [];
      const holidays = rec.holidays ?? 'ignore';
      const count = Date.parse(rule.send_at) < Date.now() ? PREVIEW_MAX : PREVIEW_COUNT;
      let plain: Promise<string[] | null> = Promise.resolve(null);
      if (needsPlainPreview(holidays, skip)) {
        const { holidays: _h, skip: _s, ...plainRec } = rec;
        // Enough plain dates to reach past the dropped ones.
        plain = api.reminders
          .preview({ ...rule, recurrence: plainRec as typeof rec }, Math.min(PREVIEW_MAX, count + skip.length + 5))
          .then((r) => r.occurrences);
      }
      Promise.all([api.reminders.preview(rule, count), plain]).then(
        ([actual, plainList]) => {
          if (cancelled) return;
          const complete = actual.occurrences.length < count;
          const marked = markPreview(actual.occurrences, plainList, { skip, holidays, timezone: rule.timezone ?? 'UTC', complete });
          setState({ ...upcomingRows(marked, Date.now(), PREVIEW_COUNT, complete), error: false, loading: false });
        },
        () => !cancelled && setState({ ...EMPTY, error: true }),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(h);
    };
  }, [input]);
  return { ...state, problem };
}
