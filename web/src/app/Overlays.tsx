import { useEffect } from 'react';
import { useNavigate } from '../lib/router';
import { InstallPrompt } from '../features/install/InstallPrompt';
import { IosGuide } from '../features/install/IosGuide';
import { OfflineBanner } from '../features/offline/OfflineBanner';
import { SyncConflictNotice } from '../features/offline/SyncConflictNotice';
import { usePageArrival } from './pageArrival';

/** A service-worker message NAVIGATE_FROM_NOTIFICATION {url} navigates the app there. */
function useNotificationNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const sw = navigator.serviceWorker;
    if (!sw) return;
    const onMessage = (e: MessageEvent) => {
      const data = e.data as { type?: string; url?: unknown } | null;
      if (data?.type !== 'NAVIGATE_FROM_NOTIFICATION' || typeof data.url !== 'string') return;
      const url = new URL(data.url, window.location.origin);
      if (url.origin !== window.location.origin) return;
      navigate(url.pathname + url.search + url.hash);
    };
    sw.addEventListener('message', onMessage);
    return () => sw.removeEventListener('message', onMessage);
  }, [navigate]);
}

export default function Overlays() {
  useNotificationNavigation();
  // Where a page opens and what it focuses (after the first paint, like the overlays).
  usePageArrival();
  return (
    <>
      <OfflineBanner />
      <SyncConflictNotice />
      <InstallPrompt />
      <IosGuide />
    </>
  );
}
