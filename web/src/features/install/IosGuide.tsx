import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBottomOverlay } from '../../components/bottomOverlays';
import { isStandalone, pointerContext } from '../../lib/platform';
import { IOS_GUIDE_DELAY_MS, dismissIosGuide, shouldShowIosGuide } from './installRules';
import { loadIosGuideState, saveIosGuideState } from './installStorage';

let shownThisLoad = false;

/** iOS add-to-home-screen guide: iOS Safari outside standalone, once, 3 s after load; dismiss = 7 days. */
export function IosGuide() {
  const { t } = useTranslation('install');
  const [visible, setVisible] = useState(false);
  // Its height keeps the toasts above it (components/bottomOverlays).
  const ref = useBottomOverlay('card');

  useEffect(() => {
    const h = setTimeout(() => {
      const nav = { userAgent: navigator.userAgent, maxTouchPoints: navigator.maxTouchPoints ?? 0, standalone: isStandalone() };
      if (shouldShowIosGuide(nav, loadIosGuideState(), Date.now(), shownThisLoad)) {
        shownThisLoad = true;
        setVisible(true);
      }
    }, IOS_GUIDE_DELAY_MS);
    return () => clearTimeout(h);
  }, []);

  function dismiss() {
    saveIosGuideState(dismissIosGuide(Date.now()));
    setVisible(false);
  }

  if (!visible) return null;
  return (
    <aside ref={ref} className="overlay-card ios-guide" role="dialog" aria-labelledby="ios-guide-title">
      <button type="button" className="icon-button close" aria-label={t('close')} onClick={dismiss}>
        ×
      </button>
      <h2 id="ios-guide-title">{t('ios.title')}</h2>
      <p>{t('ios.why')}</p>
      <ol>
        <li>{t('ios.step1', { context: pointerContext() })}</li>
        <li>{t('ios.step2')}</li>
        <li>{t('ios.step3')}</li>
      </ol>
      <button type="button" className="button secondary" onClick={dismiss}>
        {t('ios.dismiss')}
      </button>
    </aside>
  );
}
