import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from './lib/router';
import { AppRoutes } from './app/router';
import { initI18n } from './i18n';
import { installAuth } from './lib/authStore';
import { afterFirstPaint, firstRenderCommitted } from './lib/firstPaint';
import { initialLanguageRedirect, langFromPath, readSavedLang } from './lib/lang';
import { registerServiceWorker } from './lib/registerSw';
import './styles.css';

// First visit to a root path: saved preference, else browser language (decisions.md).
const here = location.pathname + location.search + location.hash;
const target = initialLanguageRedirect(here, readSavedLang(globalThis.localStorage), navigator.languages ?? [navigator.language]);
if (target) history.replaceState(history.state, '', target);

const lang = langFromPath(location.pathname);
document.documentElement.lang = lang;
initI18n(lang);
registerServiceWorker();
// The session check and the background tasks start once the first screen is painted (a page
// that needs the session shows its spinner meanwhile; one without a stored user is signed out).
afterFirstPaint(() => {
  installAuth();
  void import('./app/startup').then((m) => m.startBackgroundTasks());
});

function FirstPaint() {
  useEffect(firstRenderCommitted, []);
  return null;
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
    <FirstPaint />
  </StrictMode>,
);
