import { useTranslation } from 'react-i18next';
import { useOnline } from '../health/useHealth';

/** The offline banner ("オフラインモード" / "Offline mode"). */
export function OfflineBanner() {
  const { t } = useTranslation('offline');
  const online = useOnline();
  if (online) return null;
  return (
    <div className="offline-banner" role="status">
      <strong>{t('banner')}</strong> <span>{t('bannerDetail')}</span>
    </div>
  );
}
