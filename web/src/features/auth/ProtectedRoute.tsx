import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from '../../lib/router';
import { LangLink } from '../../components/LangLink';
import { PageFallback } from '../../components/Spinner';
import { toast } from '../../components/toast';
import { useAuth } from '../../lib/authStore';
import { useLang, useLocalizedPath } from '../../lib/useLang';

/**
 * Sends visitors who are not signed in to /login (or /en/login) with a toast. While the first
 * session check runs, a spinner shows. The toast says whether the session check itself failed.
 */
export function ProtectedRoute({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const lang = useLang();
  const auth = useAuth();
  const lp = useLocalizedPath();
  const location = useLocation();
  const mustLeave = !auth.user && auth.status === 'signedOut';
  // Signing out (or deleting the account) on a protected page leaves for home, without a toast.
  const leftOnPurpose = auth.signedOutFrom === location.pathname;

  useEffect(() => {
    if (!mustLeave || leftOnPurpose) return;
    // In the path's language even while i18next is still switching.
    const tl = i18n.getFixedT(lang, 'common');
    toast.error(auth.checkFailed ? tl('auth.checkFailed') : tl('auth.required'), { survivesNavigation: true });
  }, [mustLeave, leftOnPurpose, auth.checkFailed, i18n, lang]);

  if (auth.user) return <>{children}</>;
  if (auth.status === 'checking') return <PageFallback />;
  if (leftOnPurpose) return <Navigate to={lp('/')} replace />;
  // The fallback card shows for the instant before the redirect (and if navigation is blocked).
  return (
    <>
      <div className="card fallback-card">
        <h1>{t('auth.requiredTitle')}</h1>
        <LangLink className="button primary" to="/login">
          {t('auth.goToLogin')}
        </LangLink>
      </div>
      <Navigate to={lp('/login')} replace state={{ from: location.pathname + location.search }} />
    </>
  );
}
