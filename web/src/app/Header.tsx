import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../components/LangLink';
import { LangSwitch } from '../components/LangSwitch';
import { LogoMark } from '../components/Logo';
import { useAuth } from '../lib/authStore';

// Signed-in controls (create, notifications, test, health, menu) load only for signed-in users.
const SignedInControls = lazy(() => import('./SignedInControls'));

export function Header() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <header className="site-header">
      <a className="skip-link" href="#main">
        {t('nav.skipToContent')}
      </a>
      <LangLink to="/" className="logo" aria-label={t('nav.homeLabel')}>
        <LogoMark />
        <span className="logo-text">{t('appName')}</span>
      </LangLink>
      <div className="header-end">
        {user ? (
          <Suspense fallback={null}>
            <SignedInControls email={user.email} />
          </Suspense>
        ) : (
          <nav className="header-links" aria-label={t('nav.mainLabel')}>
            <LangLink to="/guide" className="hide-narrow">
              {t('nav.guide')}
            </LangLink>
            <LangLink to="/faq" className="hide-narrow">
              {t('nav.faq')}
            </LangLink>
            <LangLink to="/login" className="button primary small">
              {t('nav.signIn')}
            </LangLink>
          </nav>
        )}
        <LangSwitch />
      </div>
    </header>
  );
}
