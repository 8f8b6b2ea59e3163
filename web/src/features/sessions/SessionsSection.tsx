import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../../lib/router';
import useSWR from 'swr';
import { ConfirmDialog } from '../../components/Dialog';
import { toast } from '../../components/toast';
import { isApiError } from '../../lib/api';
import { signOut } from '../../lib/authStore';
import { syncSubscription } from '../../lib/push/pushClient';
import { pushStateChanged } from '../../lib/push/usePushState';
import { swrKeys } from '../../lib/swrKeys';
import { useOnline } from '../../lib/useOnline';
import type { AuthSession } from '../../lib/types';
import { useLocalizedPath } from '../../lib/useLang';
import { useDates } from '../../shared/useDates';
import { endSession, listSessions } from './sessionsApi';

/** This one first, then the most recently used. */
export function orderSessions(list: readonly AuthSession[]): AuthSession[] {
  return [...list].sort((a, b) => Number(b.current) - Number(a.current) || Date.parse(b.last_used_at) - Date.parse(a.last_used_at));
}

/**
 * Settings → Sessions (decisions.md "Sessions"): every place this account is signed in, with its
 * device label, when it signed in and was last used, this one marked; any other one can be
 * ended, and "Sign out everywhere" ends them all, this one too (after unsubscribing this device,
 * like any sign-out).
 */
export function SessionsSection() {
  const { t } = useTranslation('sessions');
  const dates = useDates();
  const navigate = useNavigate();
  const lp = useLocalizedPath();
  const { pathname } = useLocation();
  const sessions = useSWR(swrKeys.sessions(), listSessions);
  const [ending, setEnding] = useState<AuthSession | null>(null);
  const [everywhere, setEverywhere] = useState(false);
  const [busy, setBusy] = useState(false);
  // Ending sessions is the server's: offline it waits, and says so.
  const online = useOnline();
  const describedBy = online ? undefined : 'sessions-offline';
  const name = (s: AuthSession) => s.label.trim() || t('unknown');

  async function end(s: AuthSession) {
    setBusy(true);
    try {
      // Already over (expired, or ended elsewhere): it leaves the list all the same.
      await endSession(s.id).catch((e: unknown) => {
        if (!isApiError(e, 'NOT_FOUND')) throw e;
      });
      await sessions.mutate((list) => list?.filter((x) => x.id !== s.id), { revalidate: true });
      toast.success(t('ended', { name: name(s) }));
    } catch {
      toast.error(t('endFailed'));
    } finally {
      setBusy(false);
      setEnding(null);
    }
  }

  async function endEverywhere() {
    setBusy(true);
    try {
      await signOut(pathname, true);
      toast.success(t('signedOutEverywhere'), { survivesNavigation: true });
      navigate(lp('/'), { replace: true });
    } catch {
      // Still signed in here: this device receives again, as after any start of the app.
      void syncSubscription().then((ok) => ok && pushStateChanged());
      toast.error(t('everywhereFailed'));
      setBusy(false);
      setEverywhere(false);
    }
  }

  const list = orderSessions(sessions.data ?? []);
  return (
    <section className="card sessions" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t('title')}</h2>
      <p className="hint">{t('intro')}</p>
      {sessions.error && !sessions.data ? (
        <p className="muted">{online ? t('loadFailed') : t('loadLater')}</p>
      ) : (
        <ul className="device-list" aria-busy={!sessions.data}>
          {list.map((s) => (
            <li key={s.id} className="device-item">
              <div>
                <p className="device-label">
                  <strong>{name(s)}</strong>
                  {s.current && <span className="badge">{t('thisDevice')}</span>}
                </p>
                <p className="muted small">
                  {t('created', { when: dates.when(s.created_at) })}
                  {' · '}
                  {t('lastUsed', { when: dates.when(s.last_used_at) })}
                </p>
              </div>
              {!s.current && (
                <button
                  type="button"
                  className="button small secondary"
                  disabled={busy || !online}
                  aria-describedby={describedBy}
                  onClick={() => setEnding(s)}
                  aria-label={t('endNamed', { name: name(s) })}
                >
                  {t('end')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button secondary" disabled={busy || !online} aria-describedby={describedBy} onClick={() => setEverywhere(true)}>
        {t('signOutEverywhere')}
      </button>
      {!online && (
        <p id="sessions-offline" className="hint">
          {t('offline')}
        </p>
      )}

      <ConfirmDialog
        open={ending !== null}
        title={t('endConfirm.title')}
        cancel={t('cancel')}
        confirm={t('endConfirm.confirm')}
        onConfirm={() => ending && void end(ending)}
        onClose={() => setEnding(null)}
        busy={busy}
        disabled={!online}
      >
        <p>{ending && t('endConfirm.text', { name: name(ending), when: dates.when(ending.created_at) })}</p>
        {!online && <p className="hint">{t('offline')}</p>}
      </ConfirmDialog>

      <ConfirmDialog
        open={everywhere}
        title={t('everywhereConfirm.title')}
        cancel={t('cancel')}
        confirm={t('everywhereConfirm.confirm')}
        onConfirm={() => void endEverywhere()}
        onClose={() => setEverywhere(false)}
        busy={busy}
        disabled={!online}
      >
        <p>{t('everywhereConfirm.text')}</p>
        {!online && <p className="hint">{t('offline')}</p>}
      </ConfirmDialog>
    </section>
  );
}
