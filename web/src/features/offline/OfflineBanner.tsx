import { useTranslation } from 'react-i18next';
import { useBottomOverlay } from '../../components/bottomOverlays';
import { usePendingCount } from '../../lib/offline/pendingStatus';
import { useOnline } from '../../lib/useOnline';

/**
 * The offline/sync status banner: "オフラインモード" / "Offline mode" while offline, and how many
 * actions wait in the pending-action queue (offline, or online until they have synced).
 */
export function OfflineBanner() {
  const online = useOnline();
  const pending = usePendingCount();
  return <SyncBanner online={online} pending={pending} />;
}

export function SyncBanner({ online, pending }: { online: boolean; pending: number }) {
  const { t } = useTranslation('offline');
  // Its height keeps the install cards and the toasts above it (components/bottomOverlays).
  const ref = useBottomOverlay('banner');
  if (online && pending === 0) return null;
  return (
    <div ref={ref} className={online ? 'offline-banner syncing' : 'offline-banner'} role="status">
      {online ? <strong>{t('syncing')}</strong> : <strong>{t('banner')}</strong>}
      {!online && <span> {t('bannerDetail')}</span>}
      {pending > 0 && (
        <span className="pending-count" data-count={pending}>
          {' '}
          {t('pending', { count: pending })}
        </span>
      )}
    </div>
  );
}
