import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { Footer } from '../components/Footer';
import { SideNav } from '../components/SideNav';
import { PageFallback } from '../components/Spinner';
import { Toaster } from '../components/Toaster';
import { useAuth } from '../lib/authStore';
import { langFromPath } from '../lib/lang';
import { Header } from './Header';
import { useDocumentTitle } from './useDocumentTitle';

// Overlays (install prompt, iOS guide, offline/sync banner) are not needed for the first paint.
const Overlays = lazy(() => import('./Overlays'));

/** Keeps i18next and <html lang> on the language the path decides. */
function useLanguageFromPath() {
  const { i18n } = useTranslation();
  const { pathname } = useLocation();
  const lang = langFromPath(pathname);
  useEffect(() => {
    if (i18n.language !== lang) void i18n.changeLanguage(lang);
    document.documentElement.lang = lang;
  }, [i18n, lang]);
}

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

export function Layout() {
  useLanguageFromPath();
  useNotificationNavigation();
  useDocumentTitle();
  const { user } = useAuth();
  return (
    <div className={`app-shell${user ? ' signed-in' : ''}`}>
      <Header />
      <div className="app-body">
        {user && <SideNav />}
        <main id="main" tabIndex={-1}>
          <Suspense fallback={<PageFallback />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      <Footer />
      <Toaster />
      <Suspense fallback={null}>
        <Overlays />
      </Suspense>
    </div>
  );
}
