import { describe, expect, it } from 'vitest';
import {
  DAY,
  EMPTY_INSTALL_STATE,
  MINUTE,
  dismissInstallPrompt,
  dismissIosGuide,
  installPromptDelay,
  isIosSafari,
  recordVisit,
  shouldShowInstallPrompt,
  shouldShowIosGuide,
  type InstallPromptState,
} from './installRules';

const T0 = Date.UTC(2025, 0, 1);
const ok = { installed: false, promptAvailable: true };

function visits(n: number, first = T0): InstallPromptState {
  let s = EMPTY_INSTALL_STATE;
  for (let i = 0; i < n; i++) s = recordVisit(s, first + i * 1000);
  return s;
}

describe('install prompt', () => {
  it('records the first visit time once', () => {
    const s = visits(3);
    expect(s.visits).toBe(3);
    expect(s.firstVisitAt).toBe(T0);
  });
  it('needs 3 or more visits', () => {
    expect(shouldShowInstallPrompt(visits(2), T0 + 10 * MINUTE, ok)).toBe(false);
    expect(shouldShowInstallPrompt(visits(3), T0 + 10 * MINUTE, ok)).toBe(true);
    expect(shouldShowInstallPrompt(visits(9), T0 + 10 * MINUTE, ok)).toBe(true);
  });
  it('needs 5 minutes since the first visit', () => {
    expect(shouldShowInstallPrompt(visits(3), T0 + 5 * MINUTE - 1, ok)).toBe(false);
    expect(shouldShowInstallPrompt(visits(3), T0 + 5 * MINUTE, ok)).toBe(true);
  });
  it('never shows when installed or when the browser offers no prompt', () => {
    expect(shouldShowInstallPrompt(visits(5), T0 + DAY, { ...ok, installed: true })).toBe(false);
    expect(shouldShowInstallPrompt(visits(5), T0 + DAY, { ...ok, promptAvailable: false })).toBe(false);
  });
  it('close snoozes 3 days', () => {
    const now = T0 + DAY;
    const s = dismissInstallPrompt(visits(3), 'close', now);
    expect(shouldShowInstallPrompt(s, now + 3 * DAY - 1, ok)).toBe(false);
    expect(shouldShowInstallPrompt(s, now + 3 * DAY, ok)).toBe(true);
  });
  it('later and declined snooze 7 days', () => {
    const now = T0 + DAY;
    for (const how of ['later', 'declined'] as const) {
      const s = dismissInstallPrompt(visits(3), how, now);
      expect(shouldShowInstallPrompt(s, now + 7 * DAY - 1, ok)).toBe(false);
      expect(shouldShowInstallPrompt(s, now + 7 * DAY, ok)).toBe(true);
    }
  });
  it('computes the delay until the prompt may show', () => {
    expect(installPromptDelay(visits(2), T0)).toBeNull();
    expect(installPromptDelay(visits(3), T0 + MINUTE)).toBe(4 * MINUTE);
    expect(installPromptDelay(visits(3), T0 + 6 * MINUTE)).toBe(0);
    const snoozed = dismissInstallPrompt(visits(3), 'close', T0 + DAY);
    expect(installPromptDelay(snoozed, T0 + DAY)).toBe(3 * DAY);
  });
});

const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const CHROME_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0 Mobile/15E148 Safari/604.1';
const IPADOS_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0 Mobile Safari/537.36';

describe('iOS guide', () => {
  const iphone = { userAgent: SAFARI_IPHONE, maxTouchPoints: 5, standalone: false };
  it('detects iOS Safari only', () => {
    expect(isIosSafari(iphone)).toBe(true);
    expect(isIosSafari({ userAgent: CHROME_IPHONE, maxTouchPoints: 5 })).toBe(false);
    expect(isIosSafari({ userAgent: IPADOS_SAFARI, maxTouchPoints: 5 })).toBe(true);
    expect(isIosSafari({ userAgent: IPADOS_SAFARI, maxTouchPoints: 0 })).toBe(false); // a real Mac
    expect(isIosSafari({ userAgent: ANDROID_CHROME, maxTouchPoints: 5 })).toBe(false);
  });
  it('shows in iOS Safari outside standalone, once per load', () => {
    expect(shouldShowIosGuide(iphone, { snoozedUntil: null }, T0, false)).toBe(true);
    expect(shouldShowIosGuide(iphone, { snoozedUntil: null }, T0, true)).toBe(false);
    expect(shouldShowIosGuide({ ...iphone, standalone: true }, { snoozedUntil: null }, T0, false)).toBe(false);
    expect(
      shouldShowIosGuide({ userAgent: CHROME_IPHONE, maxTouchPoints: 5, standalone: false }, { snoozedUntil: null }, T0, false),
    ).toBe(false);
  });
  it('dismiss snoozes 7 days', () => {
    const s = dismissIosGuide(T0);
    expect(shouldShowIosGuide(iphone, s, T0 + 7 * DAY - 1, false)).toBe(false);
    expect(shouldShowIosGuide(iphone, s, T0 + 7 * DAY, false)).toBe(true);
  });
});
