import { describe, expect, it } from 'vitest';
import { PRIVATE_QUOTA_BYTES, browserChecks, detectPrivacyBrowser, type BrowserFacts } from './browserChecks';

const good: BrowserFacts = { pushApis: true, cookies: true, localStorage: true, indexedDb: true, quota: 50e9, privacyBrowser: null };

describe('browserChecks', () => {
  it('is all healthy in an ordinary browser window', () => {
    expect(Object.values(browserChecks(good)).every((s) => s === 'healthy')).toBe(true);
  });
  it('reports missing push support, cookies and storage as errors', () => {
    expect(browserChecks({ ...good, pushApis: false }).support).toBe('error');
    expect(browserChecks({ ...good, cookies: false }).cookies).toBe('error');
    const noIdb = browserChecks({ ...good, indexedDb: false });
    expect(noIdb.storage).toBe('error');
    expect(noIdb.privateMode).toBe('warning');
  });
  it('suspects private mode from a small quota, and warns about privacy browsers', () => {
    expect(browserChecks({ ...good, quota: PRIVATE_QUOTA_BYTES - 1 }).privateMode).toBe('warning');
    expect(browserChecks({ ...good, quota: null }).privateMode).toBe('healthy');
    expect(browserChecks({ ...good, privacyBrowser: 'Brave' }).privacyBrowser).toBe('warning');
  });
  it('detects privacy-focused browsers', () => {
    expect(detectPrivacyBrowser('Mozilla/5.0 Chrome/120', { brave: {} })).toBe('Brave');
    expect(detectPrivacyBrowser('Mozilla/5.0 (iPhone) DuckDuckGo/7 Safari/605')).toBe('DuckDuckGo');
    expect(detectPrivacyBrowser('Mozilla/5.0 (Android) Focus/120 Firefox')).toBe('Firefox Focus');
    expect(detectPrivacyBrowser('Mozilla/5.0 Chrome/120 Safari/537')).toBeNull();
  });
});
