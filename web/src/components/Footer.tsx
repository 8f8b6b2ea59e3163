import { useTranslation } from 'react-i18next';
import { LangLink } from './LangLink';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <nav aria-label={t('footer.navLabel')}>
        <LangLink to="/privacy">{t('footer.privacy')}</LangLink>
        <LangLink to="/terms">{t('footer.terms')}</LangLink>
        <LangLink to="/commercial-transaction-act">{t('footer.commercial')}</LangLink>
        <LangLink to="/status">{t('footer.status')}</LangLink>
      </nav>
      <p className="credits">{t('footer.credits', { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
