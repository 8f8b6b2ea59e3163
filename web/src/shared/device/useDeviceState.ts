import { usePushState, type PushState } from '../../lib/push/usePushState';
import { deviceState, type DeviceState } from './deviceState';

export type BrowserFamily = 'chrome' | 'brave' | 'edge' | 'firefox' | 'safari' | 'other';

/** Which browser's settings to describe (unblocking, its push service). Brave says so in `navigator.brave`. */
export function browserFamily(userAgent: string, brave = false): BrowserFamily {
  if (/Edg(A|iOS)?\//.test(userAgent)) return 'edge';
  if (/Firefox\/|FxiOS\//.test(userAgent)) return 'firefox';
  if (/Chrome\/|CriOS\/|Chromium\//.test(userAgent)) return brave ? 'brave' : 'chrome';
  if (/Safari\//.test(userAgent)) return 'safari';
  return 'other';
}

/** This browser's family. */
export function thisBrowser(): BrowserFamily {
  return browserFamily(navigator.userAgent, 'brave' in navigator);
}

/** This device's state (one vocabulary: namespace `device`), with the push facts it was decided from. */
export function useDeviceState(): { state: DeviceState | 'checking'; push: PushState } {
  const push = usePushState();
  return { state: deviceState(push), push };
}
