import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/LangLink';
import { Spinner } from '../../components/Spinner';
import { checkSession, useAuth } from '../../lib/authStore';

/**
 * The admin pages' guard (decisions.md: non-admins never see admin links). A signed-in person is
 * an admin once the session check says so; until then nothing of the page shows, and someone who
 * is not an admin reads only that the page is for administrators, with a way home and no admin
 * links.
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation('admin');
  const { isAdmin, checkFailed } = useAuth();
  // The stored sign-in does not say who is an admin: the session check (the start-up one if it
  // is still running) does.
  const [checked, setChecked] = useState(isAdmin);
  useEffect(() => {
    if (isAdmin) return;
    let live = true;
    void checkSession().finally(() => live && setChecked(true));
    return () => {
      live = false;
    };
  }, [isAdmin]);

  if (isAdmin) return <>{children}</>;
  if (!checked) return <Spinner />;
  return (
    <section className="card fallback-card" data-testid="admins-only">
      <h1>{t('adminsOnly.title')}</h1>
      <p role={checkFailed ? 'alert' : undefined}>{checkFailed ? t('adminsOnly.checkFailed') : t('forbidden')}</p>
      <LangLink className="button secondary" to="/">
        {t('adminsOnly.home')}
      </LangLink>
    </section>
  );
}
