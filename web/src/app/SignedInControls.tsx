import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../lib/router';
import { MenuIcon, PlusIcon } from '../components/icons';
import { LangLink } from '../components/LangLink';
import { usePopover } from '../components/usePopover';
import { HealthIndicator } from '../features/health/HealthIndicator';
import { NotificationToggle, TestNotificationButton } from '../features/notifications/NotificationControls';
import { signOut, useAuth } from '../lib/authStore';
import { useLocalizedPath } from '../lib/useLang';
import { OPEN_CREATE_DIALOG } from '../shared/navState';

/** Header controls for signed-in users (lazy-loaded). */
export default function SignedInControls({ email }: { email: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const lp = useLocalizedPath();
  const { isAdmin } = useAuth();
  const { pathname } = useLocation();
  const menu = usePopover<HTMLDetailsElement, HTMLElement>();

  function create() {
    // Goes to /reminders; the page opens the dialog 100 ms later.
    navigate(lp('/reminders'), { state: { [OPEN_CREATE_DIALOG]: Date.now() } });
  }

  async function logout() {
    await signOut(pathname);
    navigate(lp('/'), { replace: true });
  }

  return (
    <>
      <button type="button" className="button primary small header-create" onClick={create}>
        <PlusIcon />
        <span className="hide-narrow">{t('actions.createReminder')}</span>
        <span className="sr-only only-narrow">{t('actions.createReminder')}</span>
      </button>
      <HealthIndicator />
      <details className="menu" open={menu.open} ref={menu.root}>
        <summary
          className="button small ghost header-icon"
          aria-label={t('nav.menu')}
          ref={menu.trigger}
          onClick={(e) => {
            // The open state is React's (one menu at a time, Escape, click outside).
            e.preventDefault();
            menu.toggle();
          }}
        >
          <MenuIcon />
        </summary>
        <div className="menu-panel">
          <p className="menu-email" title={email}>
            {email}
          </p>
          <div className="menu-row">
            <NotificationToggle />
            <TestNotificationButton />
          </div>
          <nav aria-label={t('nav.mainLabel')}>
            <LangLink to="/reminders">{t('nav.reminders')}</LangLink>
            <LangLink to="/guide">{t('nav.guide')}</LangLink>
            <LangLink to="/faq">{t('nav.faq')}</LangLink>
            <LangLink to="/settings">{t('nav.settings')}</LangLink>
            {isAdmin && <LangLink to="/admin">{t('nav.admin')}</LangLink>}
          </nav>
          <button type="button" className="button secondary block" onClick={logout}>
            {t('nav.signOut')}
          </button>
        </div>
      </details>
    </>
  );
}
