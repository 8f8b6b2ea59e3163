import { describe, expect, it } from 'vitest';
import { browserFamily, setupStep, type DeviceFacts } from './deviceSetup';

const desktop: DeviceFacts = { pushSupported: true, permission: 'granted', subscribed: true, ios: false, standalone: false };

describe('the one step this device needs', () => {
  it('is nothing when this device rings', () => {
    expect(setupStep(desktop)).toBeNull();
  });
  it('asks, unblocks, subscribes, or says the browser cannot', () => {
    expect(setupStep({ ...desktop, permission: 'default', subscribed: false })).toBe('ask');
    expect(setupStep({ ...desktop, permission: 'denied', subscribed: false })).toBe('unblock');
    expect(setupStep({ ...desktop, subscribed: false })).toBe('subscribe');
    expect(setupStep({ ...desktop, pushSupported: false, permission: undefined, subscribed: false })).toBe('unsupported');
  });
  it('sends iOS Safari outside the installed app to the home screen first', () => {
    expect(setupStep({ ...desktop, ios: true, standalone: false, pushSupported: false })).toBe('installIos');
    expect(setupStep({ ...desktop, ios: true, standalone: true, permission: 'default', subscribed: false })).toBe('ask');
  });
  it('waits while the subscription is still being read', () => {
    expect(setupStep({ ...desktop, subscribed: undefined })).toBeNull();
  });
});

describe('browser family for unblocking instructions', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'chrome'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'edge'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'firefox'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Safari/605.1.15', 'safari'],
    ['curl/8', 'other'],
  ])('%s', (ua, family) => {
    expect(browserFamily(ua)).toBe(family);
  });
});
