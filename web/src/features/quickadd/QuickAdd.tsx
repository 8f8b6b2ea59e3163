import { lazy, Suspense, useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../lib/router';
import { isImeComposing } from '../../lib/ime';
import { useLang, useLocalizedPath } from '../../lib/useLang';
import { deviceZone } from '../../lib/zoneIds';
import { OPEN_CREATE_DIALOG, QUICK_ADD_PREFILL, type QuickAddPrefill } from '../../shared/navState';
import { getQuickAddNote, setQuickAddDraft, useQuickAddDraft } from '../../shared/quickAddDraft';
import { useSettings } from '../../shared/useSettings';
import type { QuickAddResult } from './parse';
import { summaryParts } from './summary';

// Said only when something was shared to the app (its texts are the automations namespace's).
const SharedLink = lazy(() => import('./SharedLink'));

type ParseModule = typeof import('./parse');
let parser: Promise<ParseModule> | null = null;
/** chrono-node and the grammar load on first use (focus or a keystroke), never with the page. */
const loadParser = () => (parser ??= import('./parse'));

/**
 * Quick add: a phrase in ja or en ("明日9時 薬", "every weekday at 7:30") understood as it is
 * typed; Enter opens the create dialog filled in (on /reminders). It never saves by itself. The
 * phrase stays in the box until the reminder it made is saved (shared/quickAddDraft): closing
 * the dialog leaves it to correct.
 */
export function QuickAdd() {
  const { t } = useTranslation('reminders');
  const lang = useLang();
  const lp = useLocalizedPath();
  const navigate = useNavigate();
  const ids = useId();
  const settings = useSettings();
  const text = useQuickAddDraft();
  // what the phrase was understood as, for the phrase it was read from
  const [read, setRead] = useState<{ text: string; result: QuickAddResult | null } | null>(null);
  const result = read?.text === text ? read.result : null;
  const [loading, setLoading] = useState(false);
  const latest = useRef(text);

  const parse = (value: string, mod: ParseModule) =>
    value.trim() === ''
      ? null
      : mod.parseQuickAdd(value, {
          now: Date.now(),
          timeZone: settings.data?.timezone || deviceZone(),
          lang,
          morning: settings.data?.morning_time,
          evening: settings.data?.evening_time,
        });

  function understand(value: string) {
    latest.current = value;
    setLoading(true);
    void loadParser().then(
      (mod) => {
        if (latest.current !== value) return;
        setLoading(false);
        setRead({ text: value, result: parse(value, mod) });
      },
      () => setLoading(false),
    );
  }

  function update(value: string) {
    setQuickAddDraft(value);
    understand(value);
  }

  // A phrase kept from before (its dialog was closed, or it came from the other page's box).
  useEffect(() => {
    if (text.trim() !== '') understand(text);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  async function submit() {
    if (text.trim() === '') return;
    const r = parse(text, await loadParser());
    if (!r) return;
    const note = getQuickAddNote();
    const prefill: QuickAddPrefill = { title: r.title, send_at: r.send_at, timezone: r.timezone, recurrence: r.recurrence, ...(note ? { description: note } : {}) };
    navigate(lp('/reminders'), { state: { [OPEN_CREATE_DIALOG]: Date.now(), [QUICK_ADD_PREFILL]: prefill } });
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key !== 'Enter' || isImeComposing(e)) return;
    e.preventDefault();
    void submit();
  }

  const parts = result ? summaryParts(result, lang, Date.now(), t) : null;
  const note = getQuickAddNote();
  return (
    <div className="quick-add">
      <label htmlFor={`${ids}-input`}>{t('quickAdd.label')}</label>
      <input
        id={`${ids}-input`}
        type="text"
        enterKeyHint="done"
        autoComplete="off"
        value={text}
        placeholder={t('quickAdd.placeholder')}
        aria-describedby={`${ids}-result ${ids}-hint`}
        onFocus={() => void loadParser()}
        onChange={(e: ChangeEvent<HTMLInputElement>) => update(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <p id={`${ids}-result`} className="quick-add-result" aria-live="polite" data-testid="quick-add-result">
        {parts ? (
          <>
            <span className="visually-hidden">{t('quickAdd.understood')}: </span>
            {parts.map((p, i) => (
              <span key={i} className="quick-add-part">
                {i > 0 && <span aria-hidden="true">{t('quickAdd.separator')}</span>}
                {p}
              </span>
            ))}
          </>
        ) : loading && text.trim() !== '' ? (
          t('quickAdd.loading')
        ) : null}
      </p>
      <p id={`${ids}-hint`} className="small muted">
        {t('quickAdd.hint')}
      </p>
      {note && (
        <Suspense fallback={null}>
          <SharedLink url={note} />
        </Suspense>
      )}
    </div>
  );
}
