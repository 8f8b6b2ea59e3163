import { useTranslation } from 'react-i18next';
import { LangNavLink } from './LangLink';

/** Home / Reminders / Settings, for signed-in users on wide screens (hidden by CSS below 900 px). */
export function SideNav() {
  const { t } = useTranslation();
  return (
    <nav className="side-nav" aria-label={t('nav.sideLabel')}>
      <LangNavLink to="/">{t('nav.home')}</LangNavLink>
      <LangNavLink to="/reminders">{t('nav.reminders')}</LangNavLink>
      <LangNavLink to="/settings">{t('nav.settings')}</LangNavLink>
    </nav>
  );
}
