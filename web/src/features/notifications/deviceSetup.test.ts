import { describe, expect, it } from 'vitest';
import { browserFamily, setupStep, type SetupFacts } from './deviceSetup';

const desktop: SetupFacts = { state: 'receiving', permission: 'granted', ios: false, standalone: false };

describe('the one step this device needs', () => {
  it('is nothing when this device rings, or while its state is read', () => {
    expect(setupStep(desktop)).toBeNull();
    expect(setupStep({ ...desktop, state: 'checking' })).toBeNull();
  });
  it('asks, finishes the set-up, registers again, unblocks, or says the browser cannot', () => {
    expect(setupStep({ ...desktop, state: 'neverSetUp', permission: 'default' })).toBe('ask');
    expect(setupStep({ ...desktop, state: 'neverSetUp' })).toBe('subscribe');
    expect(setupStep({ ...desktop, state: 'stopped' })).toBe('resubscribe');
    expect(setupStep({ ...desktop, state: 'blocked', permission: 'denied' })).toBe('unblock');
    expect(setupStep({ ...desktop, state: 'unsupported', permission: undefined })).toBe('unsupported');
  });
  it('sends iOS Safari outside the installed app to the home screen first', () => {
    expect(setupStep({ ...desktop, ios: true, standalone: false, state: 'unsupported' })).toBe('installIos');
    expect(setupStep({ ...desktop, ios: true, standalone: true, state: 'neverSetUp', permission: 'default' })).toBe('ask');
  });
});

describe('browser family for the next step', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'chrome'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'edge'],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'firefox'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Safari/605.1.15', 'safari'],
    ['curl/8', 'other'],
  ])('%s', (ua, family) => {
    expect(browserFamily(ua)).toBe(family);
  });
  it('tells Brave (navigator.brave) from Chrome', () => {
    const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    expect(browserFamily(ua, true)).toBe('brave');
  });
});
