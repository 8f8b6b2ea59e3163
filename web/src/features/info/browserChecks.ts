/**
 * The guide's "browser settings" diagnostics (product spec section 4, "System diagnostics
 * checks"): browser support, cookies, storage, private mode and privacy-focused browsers.
 * `browserProblems` is pure; `gatherBrowserFacts` asks the browser.
 */
export interface BrowserFacts {
  /** Notification, service worker and PushManager all exist */
  pushApis: boolean;
  cookies: boolean;
  /** localStorage can be written */
  localStorage: boolean;
  /** IndexedDB can be opened (the offline cache needs it) */
  indexedDb: boolean;
  /** the storage quota, in bytes, when the browser says */
  quota: number | null;
  /** a browser known to block or strip push by default (Brave, DuckDuckGo, Firefox Focus…) */
  privacyBrowser: string | null;
}

export type BrowserCheck = 'support' | 'cookies' | 'storage' | 'privateMode' | 'privacyBrowser';
export type BrowserCheckStatus = 'healthy' | 'warning' | 'error';

/** Private windows get a small storage quota (Chromium: about 100 MB and less). */
export const PRIVATE_QUOTA_BYTES = 120 * 1024 * 1024;

export function browserChecks(f: BrowserFacts): Record<BrowserCheck, BrowserCheckStatus> {
  const storageOk = f.localStorage && f.indexedDb;
  return {
    support: f.pushApis ? 'healthy' : 'error',
    cookies: f.cookies ? 'healthy' : 'error',
    storage: storageOk ? 'healthy' : 'error',
    // no IndexedDB/localStorage is what private modes (Firefox, old Safari) do; a tiny quota is Chromium's
    privateMode: !storageOk || (f.quota !== null && f.quota > 0 && f.quota < PRIVATE_QUOTA_BYTES) ? 'warning' : 'healthy',
    privacyBrowser: f.privacyBrowser ? 'warning' : 'healthy',
  };
}

/** Names a privacy-focused browser from its user agent and navigator extras. */
export function detectPrivacyBrowser(userAgent: string, nav: { brave?: unknown } = {}): string | null {
  if (nav.brave) return 'Brave';
  if (/DuckDuckGo/i.test(userAgent)) return 'DuckDuckGo';
  if (/Focus\//.test(userAgent) || /Klar\//.test(userAgent)) return 'Firefox Focus';
  return null;
}

function canWriteLocalStorage(): boolean {
  try {
    const k = '__hibiki_probe__';
    localStorage.setItem(k, '1');
    localStorage.removeItem(k);
    return true;
  } catch {
    return false;
  }
}

function canOpenIndexedDb(timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      if (typeof indexedDB === 'undefined') return resolve(false);
      const timer = setTimeout(() => resolve(false), timeoutMs);
      const req = indexedDB.open('hibiki-probe');
      req.onsuccess = () => {
        clearTimeout(timer);
        req.result.close();
        resolve(true);
      };
      req.onerror = () => {
        clearTimeout(timer);
        resolve(false);
      };
    } catch {
      resolve(false);
    }
  });
}

export async function gatherBrowserFacts(): Promise<BrowserFacts> {
  const nav = navigator as Navigator & { brave?: unknown };
  let quota: number | null = null;
  try {
    quota = (await navigator.storage?.estimate?.())?.quota ?? null;
  } catch {
    quota = null;
  }
  return {
    pushApis: 'Notification' in window && !!(navigator as { serviceWorker?: unknown }).serviceWorker && 'PushManager' in window,
    cookies: navigator.cookieEnabled,
    localStorage: canWriteLocalStorage(),
    indexedDb: await canOpenIndexedDb(),
    quota,
    privacyBrowser: detectPrivacyBrowser(navigator.userAgent, nav),
  };
}
