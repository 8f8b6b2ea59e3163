// @vitest-environment node
import { describe, expect, it } from 'vitest';
import en from '../../locales/en/device.json';
import ja from '../../locales/ja/device.json';
import { DEVICE_STATES, canEnable, deviceCheck, deviceState, type DeviceStateFacts } from './deviceState';

const F: DeviceStateFacts = { supported: true, permission: 'granted', subscribed: true, lost: false, serverFailing: false, everEnabled: true };

describe('deviceState: one function decides what this device is', () => {
  it.each<[string, Partial<DeviceStateFacts>, ReturnType<typeof deviceState>]>([
    // receiving
    ['granted and subscribed', {}, 'receiving'],
    ['granted and subscribed on its first day (never remembered)', { everEnabled: false }, 'receiving'],
    // never set up: nothing says it ever received here
    ['first sign-in: permission not asked', { permission: 'default', subscribed: false, everEnabled: false }, 'neverSetUp'],
    ['granted but never subscribed', { subscribed: false, everEnabled: false }, 'neverSetUp'],
    ['granted, never subscribed, and the start-up subscribe failed', { subscribed: false, everEnabled: false, lost: true }, 'neverSetUp'],
    ['granted, never subscribed, start-up failed before the subscription was read', { subscribed: undefined, everEnabled: false, lost: true }, 'neverSetUp'],
    ['a subscription here that the server never kept, never enabled here', { subscribed: true, everEnabled: false, lost: true }, 'neverSetUp'],
    // stopped: it used to receive and now does not
    ['it received here and the subscription is gone', { subscribed: false }, 'stopped'],
    ['it received here and the start-up check could not keep it', { lost: true }, 'stopped'],
    ['the server says its deliveries fail', { serverFailing: true }, 'stopped'],
    ['the server says its deliveries fail (not remembered here)', { serverFailing: true, everEnabled: false }, 'stopped'],
    ['it received here and the permission was reset', { permission: 'default', subscribed: false }, 'stopped'],
    // blocked
    ['denied', { permission: 'denied', subscribed: false }, 'blocked'],
    ['denied, even if it received before', { permission: 'denied', subscribed: true }, 'blocked'],
    ['denied on first sign-in', { permission: 'denied', subscribed: false, everEnabled: false }, 'blocked'],
    // unsupported
    ['no push APIs or service worker', { supported: false, permission: undefined, subscribed: undefined }, 'unsupported'],
    ['no service worker (a private window) although permission reads granted', { supported: false }, 'unsupported'],
    // still reading
    ['permission not read yet', { permission: undefined, subscribed: undefined }, 'checking'],
    ['subscription not read yet', { subscribed: undefined }, 'checking'],
  ])('%s', (_, facts, state) => {
    expect(deviceState({ ...F, ...facts })).toBe(state);
  });

  it('never tells a device that was never set up that it "stopped", whatever else happened', () => {
    for (const permission of [undefined, 'default', 'granted', 'denied'] as const)
      for (const subscribed of [undefined, true, false])
        for (const lost of [true, false])
          for (const supported of [true, false]) {
            expect(deviceState({ supported, permission, subscribed, lost, serverFailing: false, everEnabled: false })).not.toBe('stopped');
          }
  });

  it('its check is the spec health rule: healthy when receiving, error when blocked or unsupported, otherwise warning', () => {
    expect(deviceCheck('receiving')).toBe('healthy');
    expect(deviceCheck('blocked')).toBe('error');
    expect(deviceCheck('unsupported')).toBe('error');
    expect(deviceCheck('neverSetUp')).toBe('warning');
    expect(deviceCheck('stopped')).toBe('warning');
    expect(deviceCheck('checking')).toBe('checking');
    expect(DEVICE_STATES.filter(canEnable)).toEqual(['neverSetUp', 'stopped']);
  });

  it('every state has its label and summary in ja and en', () => {
    for (const dict of [en, ja]) {
      for (const s of [...DEVICE_STATES, 'checking'] as const) {
        expect(dict.state[s].label).toBeTruthy();
        expect(dict.state[s].summary).toBeTruthy();
      }
    }
    // a device never set up is not told it stopped, in either language
    expect(en.state.neverSetUp.summary).not.toMatch(/stop/i);
    expect(ja.state.neverSetUp.summary).not.toMatch(/停止|止ま|なくなって/);
  });
});
