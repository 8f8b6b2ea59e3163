import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/Dialog';
import { toast } from '../../components/toast';
import { isApiError } from '../../lib/api';
import { useOnline } from '../../lib/useOnline';
import { useDates } from '../../shared/useDates';
import { deleteToken, useTokens, type ApiToken } from './dataApi';
import { NewToken } from './NewToken';
import { SCOPE_KEY } from './tokenText';
import './data.css';

/**
 * Settings → API tokens (decisions.md "Open to other tools", api.md "Tokens, triggers, export and
 * import"): the person's tokens with what each may do, when it was made and last used and when it
 * stops working (an expired one said so); a new one (./NewToken), whose secret is shown once; and
 * deleting one, after asking. All of it is the server's: offline the controls wait, and say so.
 */
export function TokensSection() {
  const { t } = useTranslation('data');
  const ids = useId();
  const tokens = useTokens();
  const online = useOnline();
  const [removing, setRemoving] = useState<ApiToken | null>(null);
  const [busy, setBusy] = useState(false);
  const list = tokens.data ?? [];
  const offlineId = `${ids}-offline`;
  const describedBy = online ? undefined : offlineId;

  async function remove(token: ApiToken) {
    setBusy(true);
    try {
      // Already gone (deleted elsewhere): it leaves the list all the same.
      await deleteToken(token.id).catch((e: unknown) => {
        if (!isApiError(e, 'NOT_FOUND')) throw e;
      });
      setRemoving(null);
      toast.success(t('tokens.deleted', { name: token.name }));
      await tokens.mutate((all) => (all ?? []).filter((x) => x.id !== token.id), { revalidate: true });
    } catch {
      toast.error(t('tokens.deleteFailed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card api-tokens" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t('tokens.title')}</h2>
      <p className="hint">{t('tokens.intro')}</p>
      {!online && (
        <p id={offlineId} className="hint">
          {t('tokens.offline')}
        </p>
      )}
      {tokens.error && !tokens.data ? (
        <p className="muted">{online ? t('tokens.loadFailed') : t('tokens.loadLater')}</p>
      ) : list.length === 0 && tokens.data ? (
        <p className="muted">{t('tokens.none')}</p>
      ) : (
        <ul className="token-list" aria-busy={!tokens.data}>
          {list.map((token) => (
            <TokenItem key={token.id} token={token} disabled={!online || busy} describedBy={describedBy} onRemove={() => setRemoving(token)} />
          ))}
        </ul>
      )}
      <NewToken
        count={tokens.data ? list.length : 0}
        online={online}
        offlineId={offlineId}
        onCreated={(made) => void tokens.mutate((all) => [made, ...(all ?? []).filter((x) => x.id !== made.id)], { revalidate: true })}
      />
      <ConfirmDialog
        open={removing !== null}
        title={removing ? t('tokens.deleteTitle', { name: removing.name }) : ''}
        cancel={t('tokens.cancel')}
        confirm={t('tokens.delete')}
        onConfirm={() => removing && void remove(removing)}
        onClose={() => setRemoving(null)}
        busy={busy}
        disabled={!online}
      >
        <p>{t('tokens.deleteText')}</p>
        {!online && <p className="hint">{t('tokens.offline')}</p>}
      </ConfirmDialog>
    </section>
  );
}

function TokenItem({ token, disabled, describedBy, onRemove }: { token: ApiToken; disabled: boolean; describedBy: string | undefined; onRemove: () => void }) {
  const { t } = useTranslation('data');
  const dates = useDates();
  const ids = useId();
  const expired = token.expires_at != null && Date.parse(token.expires_at) <= dates.now;
  const scopes = token.scopes.map((s) => t(`tokens.scope.${SCOPE_KEY[s]}`));
  return (
    <li className={`token-item${expired ? ' expired' : ''}`} aria-labelledby={`${ids}-name`}>
      <div className="token-main">
        <p className="token-label">
          <strong id={`${ids}-name`}>{token.name}</strong>
          {expired && <span className="badge warn">{t('tokens.expired')}</span>}
        </p>
        <ul className="token-scopes">
          {scopes.map((words) => (
            <li key={words} className="badge muted">
              {words}
            </li>
          ))}
        </ul>
        <p className="muted small">
          {t('tokens.created', { when: dates.when(token.created_at) })}
          {' · '}
          {token.last_used_at ? t('tokens.lastUsed', { when: dates.when(token.last_used_at) }) : t('tokens.neverUsed')}
          {' · '}
          {token.expires_at
            ? expired
              ? t('tokens.expiredOn', { when: dates.when(token.expires_at) })
              : t('tokens.expires', { when: dates.when(token.expires_at) })
            : t('tokens.noExpiry')}
        </p>
      </div>
      <button
        type="button"
        className="button small secondary"
        disabled={disabled}
        aria-describedby={describedBy}
        aria-label={t('tokens.deleteNamed', { name: token.name })}
        onClick={onRemove}
      >
        {t('tokens.delete')}
      </button>
    </li>
  );
}
