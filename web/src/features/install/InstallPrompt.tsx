import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBottomOverlay } from '../../components/bottomOverlays';
import { isStandalone } from '../../lib/platform';
import { dismissInstallPrompt, installPromptDelay, recordVisit, shouldShowInstallPrompt, type InstallDismissal } from './installRules';
import { loadInstallState, saveInstallState } from './installStorage';

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let visitRecorded = false;

/** PWA install prompt: 3+ visits, 5 min after the first, snoozes 3 days (close) / 7 days (later, declined). */
export function InstallPrompt() {
  const { t } = useTranslation('install');
  const [deferred, setDeferred] = useState<BeforeInstallPromptEvent | null>(null);
  const [visible, setVisible] = useState(false);
  // Its height keeps the toasts above it (components/bottomOverlays).
  const ref = useBottomOverlay('card');

  useEffect(() => {
    if (!visitRecorded) {
      visitRecorded = true;
      saveInstallState(recordVisit(loadInstallState(), Date.now()));
    }
    const onPrompt = (e: Event) => {
      e.preventDefault();
      setDeferred(e as BeforeInstallPromptEvent);
    };
    const onInstalled = () => {
      setDeferred(null);
      setVisible(false);
    };
    window.addEventListener('beforeinstallprompt', onPrompt);
    window.addEventListener('appinstalled', onInstalled);
    return () => {
      window.removeEventListener('beforeinstallprompt', onPrompt);
      window.removeEventListener('appinstalled', onInstalled);
    };
  }, []);

  useEffect(() => {
    if (!deferred) return;
    const state = loadInstallState();
    const delay = installPromptDelay(state, Date.now());
    if (delay === null || delay > 2 ** 31 - 1) return;
    const h = setTimeout(() => {
      const ok = shouldShowInstallPrompt(loadInstallState(), Date.now(), { installed: isStandalone(), promptAvailable: true });
      setVisible(ok);
    }, delay);
    return () => clearTimeout(h);
  }, [deferred]);

  function dismiss(how: InstallDismissal) {
    saveInstallState(dismissInstallPrompt(loadInstallState(), how, Date.now()));
    setVisible(false);
  }

  async function install() {
    if (!deferred) return;
    await deferred.prompt();
    const choice = await deferred.userChoice;
    if (choice.outcome === 'dismissed') dismiss('declined');
    else setVisible(false);
    setDeferred(null);
  }

  if (!visible || !deferred) return null;
  return (
    <aside ref={ref} className="overlay-card install-prompt" role="dialog" aria-labelledby="install-title">
      <button type="button" className="icon-button close" aria-label={t('close')} onClick={() => dismiss('close')}>
        ×
      </button>
      <h2 id="install-title">{t('title')}</h2>
      <p>{t('text')}</p>
      <div className="row">
        <button type="button" className="button primary" onClick={install}>
          {t('install')}
        </button>
        <button type="button" className="button secondary" onClick={() => dismiss('later')}>
          {t('later')}
        </button>
      </div>
    </aside>
  );
}
