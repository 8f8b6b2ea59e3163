import { useEffect, useId, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { toast } from '../../components/toast';
import { isApiError } from '../../lib/api';
import { errorSummary } from '../../lib/apiErrors';
import type { Lang } from '../../lib/lang';
import { isReminderKey } from '../../lib/swrKeys';
import { useOnline } from '../../lib/useOnline';
import { useDates } from '../../shared/useDates';
import { exportFileName, fetchExport, importFile, MAX_IMPORT_BYTES, saveJson, type ImportReport } from './dataApi';
import './data.css';

/** "1.4 MB" / "1.4 MB" in the page's language. */
function fileSize(bytes: number, lang: Lang): string {
  return new Intl.NumberFormat(lang, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }).format(bytes / MAX_IMPORT_BYTES);
}

/**
 * The server's detail of a skipped item is for people but in English: the few of a past item
 * (its own words, api ical_import) read in the page's language; the others (a rule part, a field
 * name) are quoted as they are.
 */
const PAST_DETAILS: Record<string, 'completed' | 'cancelled' | 'passed' | 'ended'> = {
  completed: 'completed',
  cancelled: 'cancelled',
  'its time has passed': 'passed',
  'the series has ended': 'ended',
};

function detailWords(t: TFunction, detail: string): string {
  const known = PAST_DETAILS[detail];
  return known ? t(`transfer.pastDetail.${known}`) : detail;
}

type Step =
  | { at: 'idle' }
  | { at: 'checking'; file: File }
  | { at: 'preview'; file: File; report: ImportReport }
  | { at: 'importing'; file: File; report: ImportReport }
  | { at: 'done'; file: File; report: ImportReport };

/**
 * Settings → Export and import (decisions.md "Open to other tools"): everything of the person's
 * as a JSON file; and a file (Hibiki's export, or an iCalendar file) brought in in two steps:
 * choosing it runs the server's dry run and lists what would be imported (when each rings next,
 * whether it repeats) and what would be skipped and why; only Import saves. A file over 1 MiB
 * is refused here, unsent.
 */
export function TransferSection() {
  const { t } = useTranslation(['data', 'errors']);
  const ids = useId();
  const online = useOnline();
  const dates = useDates();
  const { mutate } = useSWRConfig();
  const input = useRef<HTMLInputElement>(null);
  const [exporting, setExporting] = useState(false);
  const [step, setStep] = useState<Step>({ at: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);
  const offlineId = `${ids}-offline`;
  const describedBy = online ? undefined : offlineId;

  async function exportAll() {
    setExporting(true);
    try {
      const doc = await fetchExport();
      const file = exportFileName();
      saveJson(doc, file);
      toast.success(t('transfer.exported', { file }));
    } catch (err) {
      toast.error(isApiError(err) && err.status !== 500 ? errorSummary(t, err) : t('transfer.exportFailed'));
    } finally {
      setExporting(false);
    }
  }

  function clearFile() {
    if (input.current) input.current.value = '';
  }

  async function check(file: File) {
    setProblem(null);
    if (file.size > MAX_IMPORT_BYTES) {
      setStep({ at: 'idle' });
      setProblem(t('transfer.tooBig', { name: file.name, size: fileSize(file.size, dates.lang) }));
      clearFile();
      return;
    }
    setStep({ at: 'checking', file });
    try {
      const report = await importFile(file, true);
      setStep({ at: 'preview', file, report });
    } catch (err) {
      setStep({ at: 'idle' });
      setProblem(refusal(err, file));
      clearFile();
    }
  }

  function refusal(err: unknown, file: File): string {
    if (isApiError(err, 'PAYLOAD_TOO_LARGE')) return t('transfer.tooBig', { name: file.name, size: fileSize(file.size, dates.lang) });
    if (isApiError(err) && (['INVALID_JSON', 'VALIDATION_FAILED', 'UNSUPPORTED_MEDIA_TYPE'].includes(err.code) || err.status === 415)) {
      return t('transfer.notReadable', { name: file.name });
    }
    return isApiError(err) && err.status > 0 && err.status < 500 ? errorSummary(t, err) : t('transfer.checkFailed');
  }

  async function runImport() {
    if (step.at !== 'preview' || !online) return;
    const { file, report } = step;
    setStep({ at: 'importing', file, report });
    try {
      const done = await importFile(file, false);
      setStep({ at: 'done', file, report: done });
      // The new reminders show wherever reminders are listed.
      await mutate(isReminderKey);
    } catch (err) {
      setStep({ at: 'preview', file, report });
      setProblem(isApiError(err, 'PAYLOAD_TOO_LARGE') || isApiError(err, 'INVALID_JSON') ? refusal(err, file) : t('transfer.importFailed'));
    }
  }

  function close() {
    setStep({ at: 'idle' });
    setProblem(null);
    clearFile();
    input.current?.focus();
  }

  const busy = step.at === 'checking' || step.at === 'importing';
  return (
    <section className="card transfer" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('transfer.title')}</h2>
      {!online && (
        <p id={offlineId} className="hint">
          {t('transfer.offline')}
        </p>
      )}
      <p className="hint">{t('transfer.exportIntro')}</p>
      <button type="button" className="button secondary" disabled={!online || exporting} aria-describedby={describedBy} onClick={() => void exportAll()}>
        {exporting ? t('transfer.exporting') : t('transfer.export')}
      </button>

      <div className="transfer-import">
        <label htmlFor={`${ids}-file`}>{t('transfer.importLabel')}</label>
        <input
          id={`${ids}-file`}
          ref={input}
          type="file"
          accept=".json,.ics,application/json,text/calendar"
          disabled={!online || busy}
          aria-describedby={[`${ids}-file-hint`, problem ? `${ids}-problem` : null, describedBy].filter(Boolean).join(' ')}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void check(file);
          }}
        />
        <p id={`${ids}-file-hint`} className="hint">
          {t('transfer.importHint')}
        </p>
        {problem && (
          <p id={`${ids}-problem`} className="field-error" role="alert">
            {problem}
          </p>
        )}
        {step.at === 'checking' && (
          <p className="muted" role="status">
            {t('transfer.checking', { name: step.file.name })}
          </p>
        )}
        {(step.at === 'preview' || step.at === 'importing' || step.at === 'done') && (
          <Report
            name={step.file.name}
            report={step.report}
            done={step.at === 'done'}
            importing={step.at === 'importing'}
            online={online}
            describedBy={describedBy}
            onImport={() => void runImport()}
            onClose={close}
          />
        )}
      </div>
    </section>
  );
}

/** A dry run's lists (or, once done, what was imported) with Import and Cancel (or Close). */
function Report({
  name,
  report,
  done,
  importing,
  online,
  describedBy,
  onImport,
  onClose,
}: {
  name: string;
  report: ImportReport;
  done: boolean;
  importing: boolean;
  online: boolean;
  describedBy: string | undefined;
  onImport: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('data');
  const dates = useDates();
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // A new report (the dry run's, then the import's) is read from its heading.
  useEffect(() => heading.current?.focus(), [report]);

  return (
    <section className="import-report" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} ref={heading} tabIndex={-1}>
        {done ? t('transfer.doneTitle', { name }) : t('transfer.previewTitle', { name })}
      </h3>
      <p className={done ? 'notice success' : 'hint'} role={done ? 'status' : undefined}>
        {done ? t('transfer.imported', { count: report.imported }) : t('transfer.previewNote')}
      </p>
      {report.items.length > 0 && (
        <>
          <h4>{done ? t('transfer.importedTitle', { count: report.items.length }) : t('transfer.willImport', { count: report.items.length })}</h4>
          <ul className="import-items">
            {report.items.map((item, i) => (
              <li key={`${item.item}-${i}`}>
                <strong className="import-title">{item.title || t('transfer.untitled')}</strong>
                <span className="import-meta">
                  <span>{item.next_at ? t('transfer.next', { when: dates.when(item.next_at) }) : t('transfer.noNext')}</span>
                  <span className="badge muted">{item.recurring ? t('transfer.repeats') : t('transfer.once')}</span>
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {report.items.length === 0 && !done && <p className="muted">{t('transfer.nothingToImport')}</p>}
      {report.skipped.length > 0 && (
        <>
          <h4>{t('transfer.skippedTitle', { count: report.skipped.length })}</h4>
          <ul className="import-items import-skipped">
            {report.skipped.map((s, i) => (
              <li key={`${s.item}-${i}`}>
                <strong className="import-title">{s.title || s.item || t('transfer.untitled')}</strong>
                <span className="import-reason">{t(`transfer.reason.${s.reason}`)}</span>
                {s.detail && <span className="muted small import-detail">{t('transfer.detail', { detail: detailWords(t, s.detail) })}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="row">
        {!done && (
          <button
            type="button"
            className="button primary"
            disabled={importing || !online || report.items.length === 0}
            aria-describedby={describedBy}
            onClick={onImport}
          >
            {importing ? t('transfer.importing') : t('transfer.import', { count: report.items.length })}
          </button>
        )}
        <button type="button" className="button secondary" disabled={importing} onClick={onClose}>
          {done ? t('transfer.close') : t('transfer.cancel')}
        </button>
      </div>
    </section>
  );
}
