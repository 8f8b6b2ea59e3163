import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from '../../lib/router';
import useSWR from 'swr';
import { isApiError } from '../../lib/api';
import { formatWhen } from '../../lib/format';
import type { Lang } from '../../lib/lang';
import { useLang } from '../../lib/useLang';
import { deviceZone } from '../../lib/zoneIds';
import { fetchTriggerPage, fireTrigger, type TriggerAction, type TriggerActed } from './triggerPageApi';
import './triggerPage.css';

const ACTIONS: readonly { action: TriggerAction; text: string; className: string }[] = [
  { action: 'ring', text: 'page.ring', className: 'button large primary' },
  { action: 'complete', text: 'page.complete', className: 'button large secondary' },
  { action: 'snooze', text: 'page.snooze', className: 'button large secondary' },
];

type Result = { ok: boolean; text: string } | null;

/**
 * The page a trigger link opens (`/t/:secret`; an NFC tag or a QR code leads here): the
 * reminder's title (a neutral "Reminder" when its maker hides notification content), whether it
 * rings now and when next, and Ring now, Done and Snooze (10 min). It never acts by itself: only
 * a pressed button posts to the link. It speaks the maker's language (the answer's `language`),
 * whatever the path says.
 */
export default function TriggerPage() {
  // (the path's last segment: useParams would add to the framework chunk every page loads)
  const secret = decodeURIComponent(/\/t\/([^/?#]+)/.exec(useLocation().pathname)?.[1] ?? '');
  const pathLang = useLang();
  const page = useSWR(secret ? ['trigger-page', secret] : null, ([, s]) => fetchTriggerPage(s), {
    revalidateOnFocus: false,
    shouldRetryOnError: (e: unknown) => !isApiError(e) || (e.status !== 404 && e.status !== 429),
  });
  const lang: Lang = page.data?.language ?? pathLang;
  // The page's own texts in the maker's language (the answer's), whatever the path says; the
  // header and footer, and the address, stay the path's (switching i18next's language here
  // would fight the layout's language-from-path).
  const { t } = useTranslation('automations', { lng: lang });
  const ids = useId();
  const [busy, setBusy] = useState<TriggerAction | null>(null);
  const [result, setResult] = useState<Result>(null);
  const [gone, setGone] = useState(false);

  const when = (iso: string) => formatWhen(iso, { lang, userZone: deviceZone(), now: Date.now() });

  function waitText(e: { retryAfter?: number }) {
    return e.retryAfter !== undefined && e.retryAfter > 0 ? t('page.wait', { seconds: Math.ceil(e.retryAfter) }) : t('page.waitMinute');
  }

  function actedText(a: TriggerActed): string {
    if (a.action === 'snooze') return a.changed && a.next_at ? t('page.snoozed', { when: when(a.next_at) }) : t('page.nothingToSnooze');
    if (!a.changed) return t('page.alreadyDone');
    return a.next_at ? t('page.completedNext', { when: when(a.next_at) }) : t('page.completedDone');
  }

  async function act(action: TriggerAction) {
    setBusy(action);
    setResult(null);
    try {
      const answer = await fireTrigger(secret, action);
      setResult({ ok: true, text: 'log_id' in answer ? t('page.rang') : actedText(answer) });
      void page.mutate();
    } catch (e) {
      if (isApiError(e) && e.status === 404) setGone(true);
      else if (isApiError(e) && e.status === 429) setResult({ ok: false, text: waitText(e) });
      else setResult({ ok: false, text: t('page.failed') });
    } finally {
      setBusy(null);
    }
  }

  const notFound = gone || (isApiError(page.error) && page.error.status === 404);
  const data = page.data;
  let body;
  if (notFound) {
    body = (
      <p className="trigger-result error" role="alert">
        {t('page.gone')}
      </p>
    );
  } else if (!data) {
    body = page.error ? (
      <>
        <p className="trigger-result error" role="alert">
          {isApiError(page.error) && page.error.status === 429 ? waitText(page.error) : t('page.loadFailed')}
        </p>
        <button type="button" className="button large secondary" onClick={() => void page.mutate()}>
          {t('page.retry')}
        </button>
      </>
    ) : (
      <p className="muted">{t('page.loading')}</p>
    );
  } else {
    body = (
      <>
        <p className={`trigger-page-state${data.ringing ? ' ringing' : ''}`}>{data.ringing ? t('page.ringing') : t('page.notRinging')}</p>
        <p className="trigger-page-state">
          {!data.is_active ? t('page.completed') : data.next_at ? t('page.next', { when: when(data.next_at) }) : t('page.noNext')}
        </p>
        <div className="trigger-actions" role="group" aria-label={t('page.actions')} aria-describedby={`${ids}-note`}>
          {ACTIONS.map(({ action, text, className }) => (
            <button key={action} type="button" className={className} disabled={busy !== null} aria-busy={busy === action} onClick={() => void act(action)}>
              {busy === action ? t('page.sending') : t(text)}
            </button>
          ))}
        </div>
        <p className={`trigger-result${result ? (result.ok ? ' ok' : ' error') : ''}`} role="status" aria-live="polite">
          {result?.text}
        </p>
        <p id={`${ids}-note`} className="hint">
          {t('page.note')}
        </p>
      </>
    );
  }

  return (
    <section className="card trigger-page" lang={lang} aria-labelledby={`${ids}-title`}>
      <p className="muted small">{t('page.title')}</p>
      <h1 id={`${ids}-title`}>{data ? (data.title ?? t('page.hidden')) : t('page.title')}</h1>
      {body}
    </section>
  );
}
