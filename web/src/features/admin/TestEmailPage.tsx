import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast';
import { api, isApiError } from '../../lib/api';
import { errorSummary } from '../../lib/apiErrors';

export default function TestEmailPage() {
  const { t } = useTranslation(['admin', 'errors']);
  const [busy, setBusy] = useState(false);
  async function send() {
    setBusy(true);
    try {
      await api.account.testEmail();
      toast.success(t('testEmail.sent'));
    } catch (e) {
      toast.error(isApiError(e, 'RATE_LIMITED') ? t('testEmail.rateLimited') : isApiError(e) && e.status < 500 ? errorSummary(t, e) : t('testEmail.failed'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="narrow">
      <h1>{t('testEmail.title')}</h1>
      <p>{t('testEmail.text')}</p>
      <button type="button" className="button primary" onClick={send} disabled={busy}>
        {t('testEmail.send')}
      </button>
    </div>
  );
}
