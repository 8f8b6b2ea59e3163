import { useTranslation } from 'react-i18next';
import type { Dates } from '../../../shared/useDates';
import type { FormErrors } from '../reminderLogic';
import type { Preview } from './usePreview';

const PREVIEW_MARK_TEXT = { moved: 'dialog.previewMoved', skipped: 'dialog.previewSkipped', holiday: 'dialog.previewHoliday' } as const;
/** The preview's own errors ask for a date and time; any other names the field to fix. */
const PREVIEW_NEEDS_DATE: readonly (keyof FormErrors)[] = ['date', 'time', 'timezone'];

/**
 * The reminder dialog's preview: the next occurrences in the reminder's zone, the moved and the
 * dropped ones marked; or what stops it (`errorText` words a field's problem as the form does).
 * A time already past is never listed: the preview says that some have passed, or that all have.
 * Taking turns (`turn`), each occurrence says whose turn it is.
 */
export function PreviewSection({
  id,
  preview,
  timezone,
  once,
  dates,
  errorText,
  turn,
}: {
  id: string;
  preview: Preview;
  /** a one-time reminder (its one time, not "all its times", has passed) */
  once: boolean;
  timezone: string;
  dates: Dates;
  errorText: (k: keyof FormErrors, message: string) => string;
  /** whose turn the i-th occurrence listed is (null: not taking turns) */
  turn?: ((i: number) => string | null) | null;
}) {
  const { t } = useTranslation('reminders');
  const blocked =
    preview.problem === null || PREVIEW_NEEDS_DATE.includes(preview.problem.field)
      ? t('dialog.previewEmpty')
      : errorText(preview.problem.field, preview.problem.message);
  // The dropped dates take no turn.
  let ringing = -1;
  const turns = preview.rows.map(({ mark }) => (turn && mark !== 'skipped' && mark !== 'holiday' ? turn(++ringing) : null));
  return (
    <section className="preview" aria-live="polite" aria-labelledby={id}>
      <h3 id={id}>{t('dialog.preview')}</h3>
      {preview.loading ? (
        <p className="muted">{t('dialog.previewLoading')}</p>
      ) : preview.error ? (
        <p className="muted">{t('dialog.previewUnavailable')}</p>
      ) : preview.rows.length === 0 && preview.passed > 0 ? (
        // Never a past time as if it were to come: say that they have passed.
        <p className="muted">{preview.ended ? (once ? t('dialog.previewPassedOnce') : t('dialog.previewAllPassed')) : t('dialog.previewTooFarBack')}</p>
      ) : preview.rows.length === 0 ? (
        <p className="muted">{blocked}</p>
      ) : (
        <>
          <ol>
            {preview.rows.map(({ iso, mark }, i) => (
              <li key={`${iso}-${mark ?? ''}`} className={mark === 'skipped' || mark === 'holiday' ? 'dropped' : undefined}>
                <span className="when">{dates.when(iso, timezone)}</span>
                {mark && <span className={`badge${mark === 'moved' ? '' : ' muted'}`}>{t(PREVIEW_MARK_TEXT[mark])}</span>}
                {turns[i] && <span className="badge muted">{t('assign.turn', { name: turns[i] })}</span>}
              </li>
            ))}
          </ol>
          {preview.passed > 0 && <p className="hint">{t('dialog.previewPassedLeftOut')}</p>}
        </>
      )}
    </section>
  );
}
