import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../lib/api';
import { LangLink } from '../../components/LangLink';
import { useLocalizedPath } from '../../lib/useLang';
import { afterSignIn } from './afterSignIn';
import { authErrorKey } from './authErrors';

/** Reads `#token=…` from the fragment. */
export function tokenFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const token = params.get('token');
  return token && token.length > 0 ? token : null;
}

/**
 * The sign-in link page. Mail scanners prefetch links, so loading this page never spends the
 * token: only the confirm button calls POST /api/auth/verify-link.
 */
export default function AuthCallbackPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const lp = useLocalizedPath();
  // Read once, then drop the fragment from the address bar and history once the page is shown:
  // not while rendering, since React may throw a render away (a retry interrupted by another
  // update) and render again, which would then find no token.
  const [token] = useState(() => tokenFromHash(window.location.hash));
  useEffect(() => {
    if (token) history.replaceState(history.state, '', window.location.pathname + window.location.search);
  }, [token]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    if (!token) return;
    setBusy(true);
    setError(null);
    try {
      const res = await api.auth.verifyLink(token);
      afterSignIn(res, { welcomeNew: t('welcomeNew'), signedIn: t('signedIn') });
      navigate(lp('/'), { replace: true });
    } catch (e) {
      const { key, params } = authErrorKey(e, 'errors.loginFailed');
      setError(t(key, params));
      setBusy(false);
    }
  }

  return (
    <div className="auth-page">
      <div className="card auth-card">
        <h1>{t('callback.title')}</h1>
        {token ? (
          <>
            <p>{t('callback.confirmText')}</p>
            <button type="button" className="button primary block" onClick={confirm} disabled={busy}>
              {busy ? t('verifying') : t('callback.confirm')}
            </button>
          </>
        ) : (
          <p className="field-error" role="alert">
            {t('errors.linkInvalid')}
          </p>
        )}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        {(!token || error) && (
          <LangLink className="button secondary block" to="/login">
            {t('callback.backToLogin')}
          </LangLink>
        )}
      </div>
    </div>
  );
}
