import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/LangLink';
import { useAuth } from '../../lib/authStore';
import { useSettings } from '../useSettings';

/**
 * What still reaches the person while this device cannot ring: another browser, and the email
 * fallback with their own setting (from the settings API).
 */
export function SafetyNet() {
  const { t } = useTranslation('device');
  const signedIn = useAuth().user !== null;
  const settings = useSettings({ enabled: signedIn });
  const minutes = settings.data ? settings.data.email_fallback_minutes : undefined;
  return (
    <section className="safety-net" data-testid="safety-net" aria-label={t('safetyNet.title')}>
      <p className="notice-title">
        <strong>{t('safetyNet.title')}</strong>
      </p>
      <p>{t('safetyNet.anotherBrowser')}</p>
      <p>
        {minutes === undefined ? t('safetyNet.emailUnknown') : minutes === null ? t('safetyNet.emailOff') : t('safetyNet.emailOn', { n: minutes })}
      </p>
      {minutes !== undefined && minutes !== null && <p>{t('safetyNet.emailNoDevice')}</p>}
      <p>
        <LangLink to="/settings">{t('safetyNet.settingsLink')}</LangLink>
      </p>
    </section>
  );
}
