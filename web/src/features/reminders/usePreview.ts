import { useEffect, useMemo, useState } from 'react';
import { api } from '../../lib/api';
import type { ReminderInput } from '../../lib/types';
import { markPreview, needsPlainPreview, type PreviewRow } from './previewMarks';
import { formToInput, validateForm, type FormErrors, type ReminderForm } from './reminderLogic';

const PREVIEW_DEBOUNCE_MS = 400;
const PREVIEW_COUNT = 5;

/** What stops the preview: the first field error, to be named ("choose at least one day"). */
export type PreviewProblem = { field: keyof FormErrors; message: string };

export interface Preview {
  rows: PreviewRow[];
  error: boolean;
  loading: boolean;
  problem: PreviewProblem | null;
}

/**
 * Next occurrences from POST /api/reminders/preview, debounced. With a holiday rule or skipped
 * dates, the same rule without them is previewed too, to mark what moved or was dropped.
 */
export function usePreview(form: ReminderForm, enabled: boolean): Preview {
  const [state, setState] = useState<{ rows: PreviewRow[]; error: boolean; loading: boolean }>({ rows: [], error: false, loading: false });
  const { input, problem } = useMemo((): { input: string | null; problem: PreviewProblem | null } => {
    if (!enabled) return { input: null, problem: null };
    const errors = validateForm({ ...form, title: form.title.trim() || 'preview' }, 0, { requireFuture: false });
    // What stops the preview, so that it can say so ("choose at least one day").
    const first = (Object.keys(errors) as (keyof FormErrors)[])[0];
    if (first) return { input: null, problem: { field: first, message: errors[first]! } };
    try {
      return { input: JSON.stringify(formToInput({ ...form, title: form.title.trim() || 'preview' })), problem: null };
    } catch {
      return { input: null, problem: { field: 'date', message: 'errors.dateRequired' } };
    }
  }, [form, enabled]);

  useEffect(() => {
    if (!input) {
      setState({ rows: [], error: false, loading: false });
      return;
    }
    let cancelled = false;
    setState((s) => ({ ...s, loading: true }));
    const h = setTimeout(() => {
      const rule = JSON.parse(input) as ReminderInput;
      const rec = rule.recurrence ?? { kind: 'none' };
      const skip = rec.skip ?? [];
      const holidays = rec.holidays ?? 'ignore';
      let plain: Promise<string[] | null> = Promise.resolve(null);
      if (needsPlainPreview(holidays, skip)) {
        const { holidays: _h, skip: _s, ...plainRec } = rec;
        // Enough plain dates to reach past the dropped ones.
        const count = Math.min(50, PREVIEW_COUNT + skip.length + 5);
        plain = api.reminders.preview({ ...rule, recurrence: plainRec as typeof rec }, count).then((r) => r.occurrences);
      }
      Promise.all([api.reminders.preview(rule, PREVIEW_COUNT), plain]).then(
        ([actual, plainList]) =>
          !cancelled &&
          setState({
            rows: markPreview(actual.occurrences, plainList, {
              skip,
              holidays,
              timezone: rule.timezone ?? 'UTC',
              complete: actual.occurrences.length < PREVIEW_COUNT,
            }),
            error: false,
            loading: false,
          }),
        () => !cancelled && setState({ rows: [], error: true, loading: false }),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(h);
    };
  }, [input]);
  return { ...state, problem };
}
