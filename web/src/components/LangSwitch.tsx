import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../lib/router';
import { getAuthState } from '../lib/authStore';
import { pathForLang, saveLang, type Lang } from '../lib/lang';
import { useLang } from '../lib/useLang';

/**
 * EN/JA switch: saves the preference and rewrites the path (adds/removes /en). Signed in, it also
 * saves the account's language, so email and push follow the language the person reads, and says
 * so when that changed it.
 */
export function LangSwitch() {
  const { t } = useTranslation();
  const lang = useLang();
  const location = useLocation();
  const navigate = useNavigate();

  function choose(next: Lang) {
    saveLang(globalThis.localStorage, next);
    if (next === lang) return;
    // Offline there is nothing to save to; the next switch online saves it.
    if (getAuthState().user && navigator.onLine !== false) {
      // Loaded on use: the API client stays out of the first paint's bundle. It says so (with
      // Undo) when the account's language changed; a failure does not hold the switch up.
      void import('./accountLanguageSwitch').then((m) => m.switchAccountLanguage(next)).catch(() => {});
    }
    navigate(pathForLang(location.pathname + location.search + location.hash, next), { state: location.state });
  }

  return (
    <div className="lang-switch" role="group" aria-label={t('lang.switchLabel')}>
      <button type="button" lang="en" aria-pressed={lang === 'en'} onClick={() => choose('en')} title={t('lang.en')}>
        EN
      </button>
      <button type="button" lang="ja" aria-pressed={lang === 'ja'} onClick={() => choose('ja')} title={t('lang.ja')}>
        JA
      </button>
    </div>
  );
}
