import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from '../lib/router';
import { Footer } from '../components/Footer';
import { SideNav } from '../components/SideNav';
import { PageFallback } from '../components/Spinner';
import { Toaster } from '../components/Toaster';
import { useAuth } from '../lib/authStore';
import { useFirstPaintDone } from '../lib/firstPaint';
import { langFromPath } from '../lib/lang';
import { Header } from './Header';
import { useDocumentTitle } from './useDocumentTitle';

// Overlays (install prompt, iOS guide, offline/sync banner, navigation asked by the service
// worker) are not needed for the first paint.
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

function DocumentTitle() {
  useDocumentTitle();
  return null;
}

/**
 * The tab's title (its table is a chunk of its own) and the overlays, once the first screen is
 * painted: a component of its own, so that their arrival re-renders only it and not the page.
 */
function AfterFirstPaint() {
  if (!useFirstPaintDone()) return null;
  return (
    <>
      <DocumentTitle />
      <Suspense fallback={null}>
        <Overlays />
      </Suspense>
    </>
  );
}

export function Layout() {
  useLanguageFromPath();
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
      <AfterFirstPaint />
    </div>
  );
}
