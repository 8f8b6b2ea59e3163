import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/Dialog';
import { CopyField } from '../../../components/Dialog';
import { toast } from '../../../components/toast';
import { isApiError } from '../../../lib/api';
import { errorSummary } from '../../../lib/apiErrors';
import { useDates } from '../../../shared/useDates';
import { createTrigger, deleteTrigger, MAX_TRIGGERS, useTriggers, type Trigger } from './triggersApi';
import './triggerLinks.css';

// The QR encoder loads only when a new link is shown.
const TriggerQr = lazy(() => import('./TriggerQr'));

const HOWTO = [
  { id: 'shortcuts', steps: ['step1', 'step2', 'step3', 'step4'] },
  { id: 'homeAssistant', steps: ['step1', 'step2', 'step3'] },
  { id: 'nfc', steps: ['step1', 'step2', 'step3'] },
] as const;

/**
 * A reminder's trigger links (decisions.md "Open to other tools"): secret URLs that ring it (or
 * complete or snooze it) from iOS Shortcuts, Home Assistant, an NFC tag or a QR code. Folded
 * until opened (the list loads then). A new link's URL is shown once, with Copy, its QR code and
 * Print; the list says when each was made and last used; a link is deleted after asking; at
 * most 5. All of it is the server's: offline the controls wait, and say why.
 */
export default function TriggerLinks({ reminderId, title, online }: { reminderId: string; title: string; online: boolean }) {
  const { t } = useTranslation(['automations', 'errors']);
  const dates = useDates();
  const ids = useId();
  const [open, setOpen] = useState(false);
  const links = useTriggers(open ? reminderId : null);
  const [made, setMade] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [atLimit, setAtLimit] = useState(false);
  const [removing, setRemoving] = useState<{ link: Trigger; n: number } | null>(null);
  const list = links.data ?? [];
  const full = atLimit || list.length >= MAX_TRIGGERS;
  const offlineId = `${ids}-offline`;
  const limitId = `${ids}-limit`;
  const describedBy = [online ? null : offlineId, full ? limitId : null].filter(Boolean).join(' ') || undefined;

  // Print QR code: the page prints only the code and the title (triggerLinks.css), then is itself again.
  useEffect(() => {
    const done = () => document.body.classList.remove('printing-trigger-qr');
    window.addEventListener('afterprint', done);
    return () => {
      window.removeEventListener('afterprint', done);
      done();
    };
  }, []);

  async function create() {
    setBusy(true);
    try {
      const answer = await createTrigger(reminderId);
      setMade(answer.url);
      toast.success(t('links.made'));
      await links.mutate();
    } catch (err) {
      if (isApiError(err, 'TRIGGER_LIMIT')) setAtLimit(true);
      else toast.error(`${t('links.failed')} ${errorSummary(t, err)}`);
    } finally {
      setBusy(false);
    }
  }

  async function remove(link: Trigger) {
    setBusy(true);
    try {
      await deleteTrigger(reminderId, link.id);
      setRemoving(null);
      setAtLimit(false);
      toast.success(t('links.removed'));
      await links.mutate((all) => (all ?? []).filter((x) => x.id !== link.id), { revalidate: true });
    } catch (err) {
      toast.error(`${t('links.removeFailed')} ${errorSummary(t, err)}`);
    } finally {
      setBusy(false);
    }
  }

  function print() {
    document.body.classList.add('printing-trigger-qr');
    window.print();
  }

  return (
    <details className="trigger-links" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{t('links.title')}</summary>
      <p className="hint">{t('links.intro')}</p>
      {!online && (
        <p id={offlineId} className="hint">
          {t('links.offline')}
        </p>
      )}
      {links.error && !links.data ? (
        <p className="muted">{t('links.loadFailed')}</p>
      ) : !links.data ? (
        <p className="muted">{t('links.loading')}</p>
      ) : list.length === 0 ? (
        <p className="muted">{t('links.none')}</p>
      ) : (
        <ul className="trigger-list" aria-label={t('links.listLabel')}>
          {list.map((link, i) => (
            <li key={link.id} className="trigger-item">
              <div className="trigger-item-text">
                <p>
                  <strong>{t('links.item', { n: i + 1 })}</strong>
                </p>
                <p className="small muted">
                  {t('links.created', { when: dates.when(link.created_at) })}
                  {' · '}
                  {link.last_used_at ? t('links.lastUsed', { when: dates.when(link.last_used_at) }) : t('links.neverUsed')}
                </p>
              </div>
              <button
                type="button"
                className="button small danger"
                disabled={!online || busy}
                aria-label={t('links.removeLabel', { n: i + 1 })}
                aria-describedby={online ? undefined : offlineId}
                onClick={() => setRemoving({ link, n: i + 1 })}
              >
                {t('links.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {made && (
        <section className="trigger-created" aria-labelledby={`${ids}-new`}>
          <h4 id={`${ids}-new`}>{t('links.newTitle')}</h4>
          <CopyField
            id={`${ids}-url`}
            label={t('links.urlLabel')}
            value={made}
            type="url"
            texts={{ copy: t('links.copy'), copied: t('links.copied'), copyFailed: t('links.copyFailed') }}
            describedBy={`${ids}-once`}
          />
          <p id={`${ids}-once`} className="notice">
            {t('links.once')}
          </p>
          <div className="trigger-qr-print">
            <Suspense fallback={null}>
              <TriggerQr url={made} label={t('links.qrAlt', { title })} />
            </Suspense>
            <p className="trigger-qr-title">{title}</p>
          </div>
          <p className="hint">{t('links.qrHint')}</p>
          <div className="row">
            <button type="button" className="button secondary" onClick={print}>
              {t('links.print')}
            </button>
            <button type="button" className="button secondary" onClick={() => setMade(null)}>
              {t('links.close')}
            </button>
          </div>
        </section>
      )}
      <div className="row">
        <button type="button" className="button small primary" disabled={!online || busy || full || !links.data} aria-describedby={describedBy} onClick={() => void create()}>
          {t('links.create')}
        </button>
      </div>
      {full && (
        <p id={limitId} className="hint">
          {t('links.limit')}
        </p>
      )}
      <div className="trigger-howto">
        <h4>{t('howto.title')}</h4>
        {HOWTO.map(({ id, steps }) => (
          <div key={id}>
            <h5>{t(`howto.${id}.title`)}</h5>
            <ol>
              {steps.map((s) => (
                <li key={s}>{t(`howto.${id}.${s}`)}</li>
              ))}
            </ol>
          </div>
        ))}
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={t('links.removeTitle')}
        cancel={t('links.cancel')}
        confirm={t('links.remove')}
        onConfirm={() => removing && void remove(removing.link)}
        onClose={() => setRemoving(null)}
        disabled={!online || busy}
      >
        <p>{t('links.removeText')}</p>
        {!online && <p className="hint">{t('links.offline')}</p>}
      </ConfirmDialog>
    </details>
  );
}
