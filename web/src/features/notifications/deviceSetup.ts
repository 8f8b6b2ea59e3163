/**
 * "This device first" (decisions.md "It rings, or it tells you"): until the device in hand is
 * subscribed, the app says this device will not ring and offers the one step that fixes it on
 * this platform. Pure, so every platform's answer is tested.
 */

export type SetupStep =
  /** iOS Safari outside the home-screen app: notifications need the installed app */
  | 'installIos'
  /** permission not asked yet: ask */
  | 'ask'
  /** notifications blocked for this site: how to unblock them in this browser */
  | 'unblock'
  /** this browser cannot receive notifications (no Web Push, private window) */
  | 'unsupported'
  /** permission granted but no subscription (never set up here, or it stopped): subscribe */
  | 'subscribe';

export interface DeviceFacts {
  pushSupported: boolean;
  permission: NotificationPermission | undefined;
  /** undefined while still being read */
  subscribed: boolean | undefined;
  ios: boolean;
  standalone: boolean;
}

/** The one step this device needs, or null when it rings (or while its state is still read). */
export function setupStep(f: DeviceFacts): SetupStep | null {
  if (f.ios && !f.standalone) return 'installIos';
  if (!f.pushSupported) return 'unsupported';
  if (f.permission === 'denied') return 'unblock';
  if (f.permission === 'default' || f.permission === undefined) return 'ask';
  if (f.subscribed === undefined) return null;
  return f.subscribed ? null : 'subscribe';
}

export type BrowserFamily = 'chrome' | 'edge' | 'firefox' | 'safari' | 'other';

/** Which browser's settings to describe for unblocking. */
export function browserFamily(userAgent: string): BrowserFamily {
  if (/Edg(A|iOS)?\//.test(userAgent)) return 'edge';
  if (/Firefox\/|FxiOS\//.test(userAgent)) return 'firefox';
  if (/Chrome\/|CriOS\/|Chromium\//.test(userAgent)) return 'chrome';
  if (/Safari\//.test(userAgent)) return 'safari';
  return 'other';
}
