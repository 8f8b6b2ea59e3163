/**
 * One vocabulary for a device (decisions.md "Trust from the first minute"): what this device is,
 * decided once from the facts, and said with the same words (namespace `device`,
 * `state.<state>.label|summary`) on the dashboard, in the header's health panel, in the guide's
 * diagnostics and wizard, and in Settings.
 *
 * - never set up: it has not received here yet (nothing asked, or allowed but not subscribed);
 * - receiving: permission granted and subscribed;
 * - stopped: it used to receive here (this browser was subscribed, or the server knows it) and
 *   now does not (the subscription is gone or could not be kept, or its deliveries fail);
 * - blocked: notifications are denied for this site;
 * - unsupported: this browser cannot receive push here (no Web Push, no service worker).
 *
 * A device that was never set up is never told it "stopped": a failed start-up check on a
 * browser that never received is still "never set up".
 */
import type { CheckStatus } from '../health/healthLogic';

export const DEVICE_STATES = ['neverSetUp', 'receiving', 'stopped', 'blocked', 'unsupported'] as const;
export type DeviceState = (typeof DEVICE_STATES)[number];

export interface DeviceStateFacts {
  /** the push APIs and a service worker are there */
  supported: boolean;
  /** undefined while still being read */
  permission: NotificationPermission | undefined;
  /** this browser holds a push subscription; undefined while still being read */
  subscribed: boolean | undefined;
  /** the start-up check could not keep the subscription (re-subscribing failed) */
  lost: boolean;
  /** the server lists this device's subscription as failing (its last delivery failed) */
  serverFailing: boolean;
  /** this browser was subscribed here before and not switched off since */
  everEnabled: boolean;
}

/** The state of this device, or 'checking' while the facts are still being read. */
export function deviceState(f: DeviceStateFacts): DeviceState | 'checking' {
  if (!f.supported) return 'unsupported';
  if (f.permission === undefined) return 'checking';
  if (f.permission === 'denied') return 'blocked';
  const usedTo = f.everEnabled || f.serverFailing;
  const notNow = usedTo ? 'stopped' : 'neverSetUp';
  if (f.permission === 'default') return notNow;
  // granted
  if (f.lost || f.serverFailing) return notNow;
  if (f.subscribed === undefined) return 'checking';
  return f.subscribed ? 'receiving' : notNow;
}

/** The health check of a device state: receiving is healthy; blocked and unsupported are errors. */
export function deviceCheck(state: DeviceState | 'checking'): CheckStatus {
  switch (state) {
    case 'checking':
      return 'checking';
    case 'receiving':
      return 'healthy';
    case 'blocked':
    case 'unsupported':
      return 'error';
    case 'neverSetUp':
    case 'stopped':
      return 'warning';
  }
}

/** Enabling is what fixes it here (the other states need the browser's settings or another browser). */
export function canEnable(state: DeviceState | 'checking'): boolean {
  return state === 'neverSetUp' || state === 'stopped';
}
