import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/Dialog';
import { CopyField } from '../../components/Dialog';
import { toast } from '../../components/toast';
import { api } from '../../lib/api';
import { useOnline } from '../../lib/useOnline';
import type { CalendarUrl } from '../../lib/types';

/** The same feed URL for calendar apps that open `webcal:` links. */
export function webcalUrl(url: string): string {
  return url.replace(/^https?:/, 'webcal:');
}

const createLink = () => api.request<CalendarUrl>('POST', '/api/calendar/token');
const revokeLink = () => api.request<void>('DELETE', '/api/calendar/token');

/**
 * Settings → Calendar feed: a secret iCalendar URL of the active reminders. The server never
 * shows a URL again (there is no GET), so the app shows it only right after making it.
 */
export function CalendarFeed() {
  const { t } = useTranslation('settings');
  const ids = useId();
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<null | 'rotate' | 'off'>(null);
  // Making and turning off a link are the server's: offline they wait, and say so.
  const online = useOnline();
  const off = busy || !online;
  const offlineReason = online ? null : (
    <p id={`${ids}-offline`} className="hint">
      {t('calendar.offline')}
    </p>
  );
  const describedBy = online ? undefined : `${ids}-offline`;

  async function create() {
    setConfirm(null);
    setBusy(true);
    try {
      const answer = await createLink();
      setUrl(answer.url);
      toast.success(url ? t('calendar.rotated') : t('calendar.created'));
    } catch {
      toast.error(t('calendar.failed'));
    } finally {
      setBusy(false);
    }
  }

  async function turnOff() {
    setConfirm(null);
    setBusy(true);
    try {
      await revokeLink();
      setUrl(null);
      toast.success(t('calendar.turnedOff'));
    } catch {
      toast.error(t('calendar.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card calendar-feed" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('calendar.title')}</h2>
      <p>{t('calendar.intro')}</p>
      <p className="hint">{t('calendar.hideContent')}</p>
      {url ? (
        <>
          <CopyField
            id={`${ids}-url`}
            label={t('calendar.urlLabel')}
            value={url}
            type="url"
            texts={{ copy: t('calendar.copy'), copied: t('calendar.copied'), copyFailed: t('calendar.copyFailed') }}
            describedBy={`${ids}-once`}
          />
          <p id={`${ids}-once`} className="hint">
            {t('calendar.copyNow')}
          </p>
          <div className="row">
            <a className="button secondary" href={webcalUrl(url)}>
              {t('calendar.open')}
            </a>
            <button type="button" className="button secondary" disabled={off} aria-describedby={describedBy} onClick={() => setConfirm('rotate')}>
              {t('calendar.rotate')}
            </button>
            <button type="button" className="button danger" disabled={off} aria-describedby={describedBy} onClick={() => setConfirm('off')}>
              {t('calendar.turnOff')}
            </button>
          </div>
          {offlineReason}
        </>
      ) : (
        <>
          <div className="row">
            <button type="button" className="button primary" disabled={off} aria-describedby={describedBy} onClick={() => void create()}>
              {t('calendar.create')}
            </button>
            <button type="button" className="button secondary" disabled={off} aria-describedby={describedBy} onClick={() => setConfirm('off')}>
              {t('calendar.turnOffEarlier')}
            </button>
          </div>
          {offlineReason}
          <p className="hint">{t('calendar.createHint')}</p>
        </>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === 'rotate' ? t('calendar.rotateTitle') : t('calendar.turnOffTitle')}
        cancel={t('calendar.cancel')}
        confirm={confirm === 'rotate' ? t('calendar.rotate') : t('calendar.turnOff')}
        tone={confirm === 'rotate' ? 'primary' : 'danger'}
        onConfirm={() => void (confirm === 'rotate' ? create() : turnOff())}
        onClose={() => setConfirm(null)}
        disabled={!online}
      >
        <p>{confirm === 'rotate' ? t('calendar.rotateText') : t('calendar.turnOffText')}</p>
        {!online && <p className="hint">{t('calendar.offline')}</p>}
      </ConfirmDialog>
    </section>
  );
}
