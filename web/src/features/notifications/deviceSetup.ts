/**
 * "This device first" (decisions.md "It rings, or it tells you"): until the device in hand
 * receives, the app says this device will not ring and offers the one step that fixes it on
 * this platform. The device's state comes from the one function that decides it
 * (shared/device/deviceState); this picks the step. Pure, so every platform's answer is tested.
 */
import type { DeviceState } from '../../shared/device/deviceState';

export type SetupStep =
  /** iOS Safari outside the home-screen app: notifications need the installed app */
  | 'installIos'
  /** never set up, permission not asked yet: ask */
  | 'ask'
  /** notifications blocked for this site: how to unblock them in this browser */
  | 'unblock'
  /** this browser cannot receive notifications (no Web Push, private window) */
  | 'unsupported'
  /** never set up, permission already granted: finish setting it up */
  | 'subscribe'
  /** it stopped: register it again */
  | 'resubscribe';

export interface SetupFacts {
  state: DeviceState | 'checking';
  permission: NotificationPermission | undefined;
  ios: boolean;
  standalone: boolean;
}

/** The one step this device needs, or null when it rings (or while its state is still read). */
export function setupStep(f: SetupFacts): SetupStep | null {
  if (f.ios && !f.standalone) return 'installIos';
  switch (f.state) {
    case 'checking':
    case 'receiving':
      return null;
    case 'unsupported':
      return 'unsupported';
    case 'blocked':
      return 'unblock';
    case 'stopped':
      return 'resubscribe';
    case 'neverSetUp':
      return f.permission === 'granted' ? 'subscribe' : 'ask';
  }
}

export { browserFamily, type BrowserFamily } from '../../shared/device/useDeviceState';
