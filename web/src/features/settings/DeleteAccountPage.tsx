import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../../lib/router';
import { toast } from '../../components/toast';
import { api, isApiError } from '../../lib/api';
import { errorSummary } from '../../lib/apiErrors';
import { expectSignOut, signOut, useAuth } from '../../lib/authStore';
import { preventImeSubmit } from '../../lib/ime';
import { useOnline } from '../../lib/useOnline';
import { useLocalizedPath } from '../../lib/useLang';

export default function DeleteAccountPage() {
  const { t } = useTranslation(['settings', 'errors']);
  const { user } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const lp = useLocalizedPath();
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const online = useOnline();
  const matches = !!user && confirm.trim().toLowerCase() === user.email.toLowerCase();

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!user || !matches || !online) return;
    setBusy(true);
    expectSignOut(pathname);
    try {
      await api.account.remove(user.email);
      // Ends signed out on the home page, where this toast follows.
      toast.success(t('delete.done'), { survivesNavigation: true });
      await signOut(pathname);
      navigate(lp('/'), { replace: true });
    } catch (e) {
      expectSignOut(null);
      toast.error(isApiError(e, 'VALIDATION_FAILED') || isApiError(e, 'RATE_LIMITED') ? errorSummary(t, e) : t('delete.failed'));
      setBusy(false);
    }
  }

  return (
    <div className="narrow">
      <h1>{t('delete.title')}</h1>
      <form className="card" onSubmit={submit} onKeyDown={preventImeSubmit}>
        <p>{t('delete.warning')}</p>
        <label htmlFor="delete-confirm">{t('delete.confirmLabel', { email: user?.email ?? '' })}</label>
        <input id="delete-confirm" type="email" autoComplete="off" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        <button type="submit" className="button danger" disabled={!matches || busy || !online} aria-describedby={online ? undefined : 'delete-offline'}>
          {t('delete.submit')}
        </button>
        {!online && (
          <p id="delete-offline" className="hint">
            {t('delete.offline')}
          </p>
        )}
      </form>
    </div>
  );
}
