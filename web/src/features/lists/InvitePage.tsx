import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../lib/router';
import { useSWRConfig } from 'swr';
import { LangLink } from '../../components/LangLink';
import { toast } from '../../components/toast';
import { isApiError } from '../../lib/api';
import { signOut, useAuth } from '../../lib/authStore';
import { tokenFromHash } from '../../lib/fragmentToken';
import { isReminderKey, swrKeys } from '../../lib/swrKeys';
import type { InvitePeek } from '../../lib/types';
import { useLocalizedPath } from '../../lib/useLang';
import { acceptInvite, peekInvite } from './listsApi';

/** Where the token waits while the person signs in (this tab only). */
export const INVITE_TOKEN_KEY = 'hibiki.inviteToken';

function keptToken(): string | null {
  try {
    return sessionStorage.getItem(INVITE_TOKEN_KEY);
  } catch {
    return null;
  }
}

function keepToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(INVITE_TOKEN_KEY, token);
    else sessionStorage.removeItem(INVITE_TOKEN_KEY);
  } catch {
    // private mode: the link has to be opened again after signing in
  }
}

type Peek = { state: 'checking' } | { state: 'ok'; invite: InvitePeek } | { state: 'invalid' } | { state: 'unknown' };

/**
 * An invitation link (`/invite#token=…`). Loading it never spends the invitation (mail scanners
 * prefetch links): it peeks to show the list, who invites and the address it is for (masked);
 * signed out, it sends the person to sign in and comes back; signed in, Accept joins the list.
 * Signed in as another address, it says which address to sign in with (decisions.md
 * "Households").
 */
export default function InvitePage() {
  const { t } = useTranslation('lists');
  const navigate = useNavigate();
  const lp = useLocalizedPath();
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  const [token] = useState(() => tokenFromHash(window.location.hash) ?? keptToken());
  // Kept for the way back from signing in; the fragment leaves the address bar and history.
  useEffect(() => {
    if (!token) return;
    keepToken(token);
    if (window.location.hash) history.replaceState(history.state, '', window.location.pathname + window.location.search);
  }, [token]);
  const [peek, setPeek] = useState<Peek>(() => (token ? { state: 'checking' } : { state: 'invalid' }));
  useEffect(() => {
    if (!token) return;
    let live = true;
    peekInvite(token).then(
      (invite) => live && setPeek({ state: 'ok', invite }),
      (e: unknown) => live && setPeek(isApiError(e, 'INVITE_INVALID') ? { state: 'invalid' } : { state: 'unknown' }),
    );
    return () => {
      live = false;
    };
  }, [token]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<'wrongAccount' | 'invalid' | 'failed' | null>(null);

  async function accept() {
    if (!token) return;
    setBusy(true);
    setError(null);
    try {
      const list = await acceptInvite(token);
      keepToken(null);
      await Promise.all([mutate(swrKeys.lists()), mutate(isReminderKey)]);
      toast.success(t('invite.joined', { name: list.name }), { survivesNavigation: true });
      navigate(lp(`/reminders?list=${encodeURIComponent(list.id)}`), { replace: true });
    } catch (e) {
      setError(isApiError(e, 'INVITE_WRONG_ACCOUNT') ? 'wrongAccount' : isApiError(e, 'INVITE_INVALID') ? 'invalid' : 'failed');
      if (isApiError(e, 'INVITE_INVALID')) keepToken(null);
      setBusy(false);
    }
  }

  const invited = peek.state === 'ok' ? peek.invite : null;
  const invalid = peek.state === 'invalid' || error === 'invalid';
  return (
    <div className="auth-page">
      <div className="card auth-card">
        <h1>{t('invite.title')}</h1>
        {invalid ? (
          <>
            <p className="field-error" role="alert">
              {t('invite.invalid')}
            </p>
            <LangLink className="button secondary block" to="/">
              {t('invite.home')}
            </LangLink>
          </>
        ) : (
          <>
            <p aria-live="polite">
              {invited ? t('invite.text', { inviter: invited.inviter, list: invited.list_name }) : peek.state === 'checking' ? t('invite.checking') : null}
            </p>
            {invited && <p>{t('invite.forAddress', { email: invited.email })}</p>}
            <p className="hint">{t('invite.seeEachOther')}</p>
            {user ? (
              <>
                <p className="small muted">{t('invite.signedInAs', { email: user.email })}</p>
                <button type="button" className="button primary block" onClick={() => void accept()} disabled={busy || peek.state === 'checking'}>
                  {busy ? t('invite.accepting') : t('invite.accept')}
                </button>
              </>
            ) : (
              <button
                type="button"
                className="button primary block"
                onClick={() => navigate(lp('/login'), { state: { from: lp('/invite') } })}
                disabled={peek.state === 'checking'}
              >
                {t('invite.signIn')}
              </button>
            )}
          </>
        )}
        {error === 'wrongAccount' && user && (
          <>
            <p className="field-error" role="alert">
              {t('invite.wrongAccount', { email: invited?.email ?? '', current: user.email })}
            </p>
            <button type="button" className="button secondary block" onClick={() => void signOut(lp('/invite'))}>
              {t('invite.signOut')}
            </button>
          </>
        )}
        {error === 'failed' && (
          <p className="field-error" role="alert">
            {t('invite.failed')}
          </p>
        )}
      </div>
    </div>
  );
}
