import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../lib/router';
import { api, isApiError } from '../../lib/api';
import { signOut, useAuth } from '../../lib/authStore';
import type { LinkPeekAnswer } from '../../lib/types';
import { LangLink } from '../../components/LangLink';
import { useLocalizedPath } from '../../lib/useLang';
import { tokenFromHash } from '../../lib/fragmentToken';
import { afterSignIn } from './afterSignIn';
import { authErrorKey } from './authErrors';


/**
 * POST /api/auth/verify-link `{token, peek: true}`: which account the link opens, masked
 * (`a***@example.com`); spends nothing. Through the shared client, kept here rather than in
 * lib/api.ts (part of the initial bundle).
 */
export function peekLink(token: string): Promise<LinkPeekAnswer> {
  return api.request<LinkPeekAnswer>('POST', '/api/auth/verify-link', { body: { token, peek: true } });
}

/** What the peek said: still asking, the masked address, the link is no good, or no answer (sign in anyway). */
type Peek = { state: 'checking' } | { state: 'ok'; email: string } | { state: 'invalid' } | { state: 'unknown' };

/**
 * The sign-in link page. Mail scanners prefetch links, so loading this page never spends the
 * token: it only peeks (which spends nothing) to show whose account the link opens, and says
 * so when another account is signed in on this browser; only the confirm button calls
 * POST /api/auth/verify-link, after signing the current account out (decisions.md "The sign-in
 * link shows whose account it opens", "Sign-out is complete").
 */
export default function AuthCallbackPage() {
  const { t } = useTranslation('callback');
  const navigate = useNavigate();
  const lp = useLocalizedPath();
  const { user } = useAuth();
  // Read once, then drop the fragment from the address bar and history once the page is shown:
  // not while rendering, since React may throw a render away (a retry interrupted by another
  // update) and render again, which would then find no token.
  const [token] = useState(() => tokenFromHash(window.location.hash));
  useEffect(() => {
    if (token) history.replaceState(history.state, '', window.location.pathname + window.location.search);
  }, [token]);
  const [peek, setPeek] = useState<Peek>(() => (token ? { state: 'checking' } : { state: 'invalid' }));
  useEffect(() => {
    if (!token) return;
    let live = true;
    peekLink(token).then(
      (answer) => live && setPeek(answer?.email ? { state: 'ok', email: answer.email } : { state: 'unknown' }),
      // Offline, or a server without the peek: the button still signs in, without the address.
      (e: unknown) => live && setPeek(isApiError(e, 'LINK_INVALID') ? { state: 'invalid' } : { state: 'unknown' }),
    );
    return () => {
      live = false;
    };
  }, [token]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    if (!token) return;
    setBusy(true);
    setError(null);
    try {
      // Another account signed in here ends completely first (its device subscription, its
      // session, its offline copy), as the page said it would.
      if (user) await signOut();
      const res = await api.auth.verifyLink(token);
      afterSignIn(res, 'link', { welcomeNew: t('auth:welcomeNew'), signedIn: t('auth:signedIn') });
      navigate(lp('/'), { replace: true });
    } catch (e) {
      const { key, params } = authErrorKey(e, 'errors.loginFailed');
      setError(t(`auth:${key}`, params));
      setBusy(false);
    }
  }

  const invalid = peek.state === 'invalid';
  return (
    <div className="auth-page">
      <div className="card auth-card">
        <h1>{t('title')}</h1>
        {invalid ? (
          <p className="field-error" role="alert">
            {t('auth:errors.linkInvalid')}
          </p>
        ) : (
          <>
            <p aria-live="polite">{peek.state === 'ok' ? t('signsInAs', { email: peek.email }) : peek.state === 'checking' ? t('checking') : null}</p>
            {user && <p className="notice">{t('replaces', { current: user.email })}</p>}
            <p>{t('confirmText')}</p>
            <button type="button" className="button primary block" onClick={confirm} disabled={busy || peek.state === 'checking'}>
              {busy ? t('auth:verifying') : t('confirm')}
            </button>
          </>
        )}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        {(invalid || error) && (
          <LangLink className="button secondary block" to="/login">
            {t('backToLogin')}
          </LangLink>
        )}
      </div>
    </div>
  );
}
