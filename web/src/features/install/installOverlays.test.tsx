/**
 * The install prompt and the iOS guide as rendered, with their rules (product spec section 9):
 * - the prompt shows only after 3 or more visits, at least 5 min after the first, when the
 *   browser offers installing (beforeinstallprompt), and not while snoozed; close snoozes it
 *   3 days, Later or declining the browser's dialog 7 days;
 * - the guide shows 3 s after load, only in iOS Safari outside standalone mode, once per load;
 *   dismissing snoozes it 7 days.
 * Each test is a fresh page load: the components' once-per-load flags start over.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense, type ComponentType } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import type { Lang } from '../../lib/lang';
import { tr } from '../../test/texts';
import { DAY, MINUTE } from './installRules';
import { INSTALL_STATE_KEY, IOS_GUIDE_KEY } from './installStorage';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

beforeAll(async () => {
  for (const lang of ['ja', 'en'] as const) {
    const i18n = initI18n(lang);
    await i18n.changeLanguage(lang);
    await i18n.loadNamespaces('install');
  }
});

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});

afterEach(() => {
  vi.useRealTimers();
});

/** A fresh load of the app's module (its once-per-load flag starts over), rendered in `lang`. */
async function load<K extends string>(module: () => Promise<Record<K, ComponentType>>, name: K, lang: Lang = 'en') {
  cleanup(); // the previous load's page is gone
  vi.resetModules();
  const Component: ComponentType = (await module())[name];
  const i18n = initI18n(lang);
  await act(() => i18n.changeLanguage(lang));
  return render(
    <Suspense fallback={null}>
      <Component />
    </Suspense>,
  );
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const stored = (key: string) => JSON.parse(localStorage.getItem(key) ?? 'null') as Record<string, number | null> | null;

describe('the install prompt', () => {
  const loadPrompt = (lang: Lang = 'en') => load(() => import('./InstallPrompt'), 'InstallPrompt', lang);

  /** The browser offers installing: a beforeinstallprompt event whose dialog answers `outcome`. */
  function offerInstall(outcome: 'accepted' | 'dismissed' = 'accepted') {
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: vi.fn(async () => {}),
      userChoice: Promise.resolve({ outcome }),
    });
    act(() => void window.dispatchEvent(event));
    return event;
  }

  const prompt = () => screen.queryByRole('dialog', { name: 'Install Hibiki' });
  const history = (visits: number, firstVisitAgo: number, snoozedUntil: number | null = null) =>
    localStorage.setItem(INSTALL_STATE_KEY, JSON.stringify({ visits, firstVisitAt: T0 - firstVisitAgo, snoozedUntil }));

  it('records each load as a visit, the first one with its time', async () => {
    await loadPrompt();
    expect(stored(INSTALL_STATE_KEY)).toEqual({ visits: 1, firstVisitAt: T0, snoozedUntil: null });
    await loadPrompt();
    expect(stored(INSTALL_STATE_KEY)).toEqual({ visits: 2, firstVisitAt: T0, snoozedUntil: null });
  });

  it('the third visit, 5 min after the first, with the browser offering it: shown (ja and en)', async () => {
    history(2, 10 * MINUTE);
    await loadPrompt('ja');
    expect(stored(INSTALL_STATE_KEY)?.visits).toBe(3);
    // not before the browser offers installing
    await advance(DAY);
    expect(screen.queryByRole('dialog')).toBeNull();
    const event = offerInstall();
    expect(event.defaultPrevented).toBe(true); // the app shows its own prompt instead of the browser's bar
    await advance(0);
    expect(screen.getByRole('dialog', { name: tr('ja', 'install:title') })).toHaveTextContent(tr('ja', 'install:text'));
    history(2, 10 * MINUTE);
    await loadPrompt('en');
    offerInstall();
    await advance(0);
    expect(prompt()).toHaveTextContent(tr('en', 'install:text'));
  });

  it('only the second visit: never shown', async () => {
    history(1, DAY);
    await loadPrompt();
    offerInstall();
    await advance(30 * DAY);
    expect(prompt()).toBeNull();
  });

  it('the third visit within 5 min of the first: shown once those 5 min are up', async () => {
    history(2, MINUTE);
    await loadPrompt();
    offerInstall();
    await advance(4 * MINUTE - 1);
    expect(prompt()).toBeNull();
    await advance(1);
    expect(prompt()).not.toBeNull();
  });

  it('not while a snooze is active; shown when it ends', async () => {
    history(5, 10 * DAY, T0 + 2 * DAY);
    await loadPrompt();
    offerInstall();
    await advance(2 * DAY - 1);
    expect(prompt()).toBeNull();
    await advance(1);
    expect(prompt()).not.toBeNull();
  });

  it('never in the installed app (standalone)', async () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q === '(display-mode: standalone)', media: q }));
    history(5, 10 * DAY);
    await loadPrompt();
    offerInstall();
    await advance(DAY);
    expect(prompt()).toBeNull();
  });

  it('close snoozes it 3 days', async () => {
    history(5, 10 * DAY);
    await loadPrompt();
    offerInstall();
    await advance(0);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(prompt()).toBeNull();
    expect(stored(INSTALL_STATE_KEY)?.snoozedUntil).toBe(T0 + 3 * DAY);
  });

  it('Later snoozes it 7 days', async () => {
    history(5, 10 * DAY);
    await loadPrompt();
    offerInstall();
    await advance(0);
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(prompt()).toBeNull();
    expect(stored(INSTALL_STATE_KEY)?.snoozedUntil).toBe(T0 + 7 * DAY);
  });

  it("Install opens the browser's dialog; declining it snoozes 7 days, accepting does not snooze", async () => {
    history(5, 10 * DAY);
    await loadPrompt();
    const declined = offerInstall('dismissed');
    await advance(0);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Install' })));
    expect(declined.prompt).toHaveBeenCalledOnce();
    expect(prompt()).toBeNull();
    expect(stored(INSTALL_STATE_KEY)?.snoozedUntil).toBe(T0 + 7 * DAY);

    history(5, 10 * DAY);
    await loadPrompt();
    const accepted = offerInstall('accepted');
    await advance(0);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Install' })));
    expect(accepted.prompt).toHaveBeenCalledOnce();
    expect(stored(INSTALL_STATE_KEY)?.snoozedUntil).toBeNull();
  });

  it('shown, it keeps the toasts above it: its height (and the gap) is --bottom-cards-space until it goes', async () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 396, 180));
    const space = () => document.documentElement.style.getPropertyValue('--bottom-cards-space');
    history(5, 10 * DAY);
    await loadPrompt();
    expect(space()).toBe('');
    offerInstall();
    await advance(0);
    expect(prompt()).not.toBeNull();
    expect(space()).toBe('188px');
    fireEvent.click(screen.getByRole('button', { name: tr('en', 'install:later') }));
    expect(prompt()).toBeNull();
    expect(space()).toBe('');
  });

  it('installed while shown (appinstalled): it goes', async () => {
    history(5, 10 * DAY);
    await loadPrompt();
    offerInstall();
    await advance(0);
    expect(prompt()).not.toBeNull();
    act(() => void window.dispatchEvent(new Event('appinstalled')));
    expect(prompt()).toBeNull();
  });
});

const UA = {
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0 Mobile/15E148 Safari/604.1',
  ipadSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  androidChrome: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0 Mobile Safari/537.36',
};

describe('the iOS add-to-home-screen guide', () => {
  function device(userAgent: string, { touch = 5, standalone = false } = {}) {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
    Object.defineProperty(navigator, 'maxTouchPoints', { value: touch, configurable: true });
    Object.defineProperty(navigator, 'standalone', { value: standalone, configurable: true });
  }
  afterEach(() => {
    delete (navigator as { maxTouchPoints?: number }).maxTouchPoints;
    delete (navigator as { standalone?: boolean }).standalone;
  });
  const loadGuide = (lang: Lang = 'en') => load(() => import('./IosGuide'), 'IosGuide', lang);
  const guide = (lang: Lang = 'en') => screen.queryByRole('dialog', { name: tr(lang, 'install:ios.title') });

  for (const lang of ['ja', 'en'] as const) {
    it(`iPhone Safari (${lang}): nothing at 2,999 ms, the guide at 3 s`, async () => {
      device(UA.iphoneSafari);
      await loadGuide(lang);
      await advance(2_999);
      expect(guide(lang)).toBeNull();
      await advance(1);
      const shown = guide(lang)!;
      for (const k of ['why', 'step1', 'step2', 'step3']) expect(shown).toHaveTextContent(tr(lang, `install:ios.${k}`));
    });
  }

  it('shown, it keeps the toasts above it (--bottom-cards-space) until dismissed', async () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 366, 240));
    const space = () => document.documentElement.style.getPropertyValue('--bottom-cards-space');
    device(UA.iphoneSafari);
    await loadGuide();
    await advance(3_000);
    expect(guide()).not.toBeNull();
    expect(space()).toBe('248px');
    fireEvent.click(screen.getByRole('button', { name: tr('en', 'install:ios.dismiss') }));
    expect(guide()).toBeNull();
    expect(space()).toBe('');
  });

  it('iPad Safari (a Mac with a touch screen) too', async () => {
    device(UA.ipadSafari, { touch: 5 });
    await loadGuide();
    await advance(3_000);
    expect(guide()).not.toBeNull();
  });

  for (const [what, ua, opts] of [
    ['Chrome on iPhone', UA.iphoneChrome, {}],
    ['Safari on a Mac', UA.macSafari, { touch: 0 }],
    ['Chrome on Android', UA.androidChrome, {}],
    ['the installed app on iPhone (standalone)', UA.iphoneSafari, { standalone: true }],
  ] as const) {
    it(`never in ${what}`, async () => {
      device(ua, opts);
      await loadGuide();
      await advance(60_000);
      expect(guide()).toBeNull();
    });
  }

  it('once per load: mounted again in the same load, it does not come back', async () => {
    device(UA.iphoneSafari);
    const { unmount } = await loadGuide();
    await advance(3_000);
    expect(guide()).not.toBeNull();
    unmount();
    const { IosGuide } = await import('./IosGuide'); // the same load: the same module
    render(<IosGuide />);
    await advance(60_000);
    expect(guide()).toBeNull();
  });

  it('dismissing snoozes it 7 days (either button), across loads', async () => {
    device(UA.iphoneSafari);
    await loadGuide();
    await advance(3_000);
    fireEvent.click(screen.getByRole('button', { name: tr('en', 'install:ios.dismiss') }));
    expect(guide()).toBeNull();
    expect(stored(IOS_GUIDE_KEY)).toEqual({ snoozedUntil: T0 + 3_000 + 7 * DAY });

    // a load whose 3 s end just inside the 7 days: still snoozed
    vi.setSystemTime(T0 + 7 * DAY - 1);
    await loadGuide();
    await advance(3_000);
    expect(guide()).toBeNull();
    // a load whose 3 s end as the 7 days do: shown again; its close button snoozes it as well
    vi.setSystemTime(T0 + 7 * DAY);
    await loadGuide();
    await advance(3_000);
    expect(guide()).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: tr('en', 'install:close') }));
    expect(guide()).toBeNull();
    expect(stored(IOS_GUIDE_KEY)).toEqual({ snoozedUntil: T0 + 7 * DAY + 3_000 + 7 * DAY });
  });
});
