/**
 * What the notification controls say when something goes wrong: the test notification's
 * SUBSCRIPTION_NOT_FOUND, RATE_LIMITED and other failures (a toast each), and enabling with
 * permission refused, the browser's subscribe failing or never finishing, no VAPID key, or the
 * network gone: beside the button, its cause and the next step for this browser, in the page's
 * language. A disabled Test button says why in words. The browser's push parts are fakes.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter } from '../../lib/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/Toaster';
import { clearToasts } from '../../components/toast';
import { initI18n } from '../../i18n';
import type { Lang } from '../../lib/lang';
import { json, mockFetch, ok, type Handler } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { EnableFailureMessage, EnableNotificationsButton, NotificationToggle, TestNotificationButton } from './NotificationControls';

// A VAPID public key: 65 bytes, URL-safe base64.
const VAPID = 'B' + 'A'.repeat(86);

interface FakePush {
  permission: NotificationPermission;
  /** what the permission prompt answers */
  prompt: NotificationPermission;
  subscribed: boolean;
  /** the browser's pushManager.subscribe fails with this */
  subscribeError?: Error;
  /** the browser's pushManager.subscribe never settles */
  subscribeHangs?: boolean;
}

/** Notification, PushManager and a service worker registration, as far as the controls use them. */
function installFakePush(f: FakePush) {
  const subscription = {
    endpoint: 'https://push.example/1',
    options: { applicationServerKey: null },
    toJSON: () => ({ endpoint: 'https://push.example/1', keys: { p256dh: 'p', auth: 'a' } }),
    getKey: () => null,
    unsubscribe: async () => true,
  };
  const pushManager = {
    getSubscription: async () => (f.subscribed ? subscription : null),
    subscribe: vi.fn(async () => {
      if (f.subscribeHangs) return new Promise<never>(() => {});
      if (f.subscribeError) throw f.subscribeError;
      f.subscribed = true;
      return subscription;
    }),
  };
  const registration = { active: {}, pushManager };
  const Notification = {
    get permission() {
      return f.permission;
    },
    requestPermission: vi.fn(async () => (f.permission = f.prompt)),
  };
  vi.stubGlobal('Notification', Notification);
  vi.stubGlobal('PushManager', function PushManager() {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: Object.assign(new EventTarget(), { ready: Promise.resolve(registration), getRegistration: async () => registration }),
  });
  return { Notification, pushManager };
}

async function renderIn(lang: Lang, ui: React.ReactNode) {
  const i18n = initI18n(lang);
  await i18n.changeLanguage(lang);
  await i18n.loadNamespaces(['common', 'notifications']);
  // The toaster keeps toasts to the page they were shown on, so it needs a router.
  return render(
    <MemoryRouter initialEntries={[lang === 'en' ? '/en/settings' : '/settings']}>
      <Suspense fallback={null}>
        {ui}
        <Toaster />
      </Suspense>
    </MemoryRouter>,
  );
}

const error = (status: number, code: string) => () => json(status, { success: false, error: { code, message: code } });
/** The cause and the next step shown beside the enable button. */
const failureTexts = () => [...document.querySelectorAll('[data-testid="enable-failure"] p')].map((p) => p.textContent);
const toastTexts = () => [...document.querySelectorAll('.toaster [role]')].map((t) => ({ role: t.getAttribute('role'), text: t.querySelector('span')?.textContent }));

beforeEach(() => {
  clearToasts();
  vi.spyOn(console, 'warn').mockImplementation(() => {}); // the client logs 429 and 5xx answers
});
afterEach(() => {
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

describe('test notification: each failure has its own toast', () => {
  const CASES: { name: string; answer: Handler; text: string; role: string }[] = [
    { name: '404 SUBSCRIPTION_NOT_FOUND', answer: error(404, 'SUBSCRIPTION_NOT_FOUND'), text: 'notifications:test.notSubscribed', role: 'alert' },
    { name: '429 RATE_LIMITED', answer: error(429, 'RATE_LIMITED'), text: 'notifications:test.rateLimited', role: 'status' },
    { name: '500', answer: error(500, 'INTERNAL_ERROR'), text: 'notifications:test.failed', role: 'alert' },
    { name: 'a network error', answer: () => Promise.reject(new TypeError('Failed to fetch')), text: 'notifications:test.failed', role: 'alert' },
  ];
  for (const lang of ['ja', 'en'] as const) {
    for (const c of CASES) {
      it(`${lang}: ${c.name}`, async () => {
        installFakePush({ permission: 'granted', prompt: 'granted', subscribed: true });
        const fetch = mockFetch({ 'POST /api/notifications': c.answer });
        await renderIn(lang, <TestNotificationButton />);
        const button = screen.getByRole('button', { name: tr(lang, 'notifications:test.button') });
        await waitFor(() => expect(button).toBeEnabled());
        fireEvent.click(button);
        await waitFor(() => expect(toastTexts()).toEqual([{ role: c.role, text: tr(lang, c.text) }]));
        expect(fetch.mock.calls.map(([u]) => u)).toEqual(['/api/notifications?action=test']);
        // Ready for another try, and no "waiting" left behind.
        await waitFor(() => expect(button).toBeEnabled());
        expect(screen.queryByText(tr(lang, 'notifications:test.waiting'))).toBeNull();
      });
    }
  }

  it('is not offered before this device is subscribed', async () => {
    installFakePush({ permission: 'granted', prompt: 'granted', subscribed: false });
    mockFetch({});
    await renderIn('en', <TestNotificationButton />);
    const button = screen.getByRole('button', { name: 'Test notification' });
    // says why in words beside it, not in a tooltip
    expect(await screen.findByText(tr('en', 'notifications:test.needsSubscription'))).toBeVisible();
    expect(button).toBeDisabled();
    expect(button).not.toHaveAttribute('title');
    expect(button).toHaveAccessibleDescription(tr('en', 'notifications:test.needsSubscription'));
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: offline, it is disabled and says why in words; back online, it can be pressed`, async () => {
      installFakePush({ permission: 'granted', prompt: 'granted', subscribed: true });
      const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      mockFetch({});
      await renderIn(lang, <TestNotificationButton />);
      const button = screen.getByRole('button', { name: tr(lang, 'notifications:test.button') });
      expect(await screen.findByText(tr(lang, 'notifications:test.offline'))).toBeVisible();
      expect(button).toBeDisabled();
      online.mockReturnValue(true);
      act(() => void window.dispatchEvent(new Event('online')));
      await waitFor(() => expect(button).toBeEnabled());
      expect(screen.queryByText(tr(lang, 'notifications:test.offline'))).toBeNull();
      online.mockRestore();
    });
  }
});

describe('enabling notifications: each failure names its cause and the next step', () => {
  const ROUTES = {
    'GET /api/notifications/vapid-public-key': () => ok({ public_key: VAPID }),
    'POST /api/notifications': () => json(204, null),
  };
  // jsdom's user agent is no known browser: the next steps are the general ones
  const CASES: { name: string; push: Partial<FakePush>; routes?: Record<string, Handler>; cause: string; next: string }[] = [
    { name: 'permission refused at the prompt', push: { prompt: 'denied' }, cause: 'notifications:errors.blocked', next: 'device:fix.unblock.other' },
    { name: 'the prompt dismissed', push: { prompt: 'default' }, cause: 'notifications:errors.blocked', next: 'device:fix.unblock.other' },
    {
      name: 'the browser cannot subscribe (push service unreachable)',
      push: { subscribeError: new DOMException('Registration failed - push service error', 'AbortError') },
      cause: 'notifications:errors.pushService',
      next: 'notifications:next.pushService.other',
    },
    {
      name: 'the server has no VAPID key',
      push: {},
      routes: { 'GET /api/notifications/vapid-public-key': error(500, 'INTERNAL_ERROR') },
      cause: 'notifications:errors.config',
      next: 'notifications:next.config',
    },
    {
      name: 'the network fails while registering',
      push: {},
      routes: { 'POST /api/notifications': () => Promise.reject(new TypeError('Failed to fetch')) },
      cause: 'notifications:errors.network',
      next: 'notifications:next.network',
    },
  ];
  for (const lang of ['ja', 'en'] as const) {
    for (const c of CASES) {
      it(`${lang}: ${c.name}`, async () => {
        installFakePush({ permission: 'default', prompt: 'granted', subscribed: false, ...c.push });
        mockFetch({ ...ROUTES, ...c.routes });
        await renderIn(lang, <EnableNotificationsButton />);
        fireEvent.click(screen.getByRole('button', { name: tr(lang, 'notifications:enable') }));
        await waitFor(() => expect(failureTexts()).toEqual([tr(lang, c.cause), tr(lang, c.next)]));
        expect(screen.getByRole('alert')).toBeVisible();
        // no greyed button left behind
        expect(screen.getByRole('button', { name: tr(lang, 'notifications:enable') })).toBeEnabled();
      });
    }
  }

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: a subscribe that never settles shows a spinner with words, then after 10 s the timeout and the next step`, async () => {
      installFakePush({ permission: 'granted', prompt: 'granted', subscribed: false, subscribeHangs: true });
      mockFetch(ROUTES);
      await renderIn(lang, <EnableNotificationsButton />);
      vi.useFakeTimers({ shouldAdvanceTime: true });
      try {
        const button = screen.getByRole('button', { name: tr(lang, 'notifications:enable') });
        fireEvent.click(button);
        // waiting: disabled, but with words and a spinner
        await waitFor(() => expect(screen.getByText(tr(lang, 'notifications:enabling'))).toBeVisible());
        expect(button).toBeDisabled();
        expect(document.querySelector('.enable-status .spinner')).not.toBeNull();
        expect(failureTexts()).toEqual([]);
        await vi.advanceTimersByTimeAsync(9_000);
        expect(failureTexts()).toEqual([]);
        await vi.advanceTimersByTimeAsync(1_500);
        await waitFor(() => expect(failureTexts()).toEqual([tr(lang, 'notifications:errors.timeout'), tr(lang, 'notifications:next.pushService.other')]));
        expect(screen.queryByText(tr(lang, 'notifications:enabling'))).toBeNull();
        expect(button).toBeEnabled();
      } finally {
        vi.useRealTimers();
      }
    });
  }

  it('en: in Brave, a push service refusal says to turn on Google services for push messaging', async () => {
    installFakePush({ permission: 'granted', prompt: 'granted', subscribed: false, subscribeError: new DOMException('Registration failed - push service error', 'AbortError') });
    mockFetch(ROUTES);
    const ua = vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36');
    Object.defineProperty(navigator, 'brave', { configurable: true, value: { isBrave: async () => true } });
    try {
      await renderIn('en', <EnableNotificationsButton />);
      fireEvent.click(screen.getByRole('button', { name: 'Enable notifications' }));
      await waitFor(() => expect(failureTexts()).toEqual([tr('en', 'notifications:errors.pushService'), tr('en', 'notifications:next.pushService.brave')]));
      expect(failureTexts()[1]).toContain('Use Google services for push messaging');
    } finally {
      ua.mockRestore();
      delete (navigator as { brave?: unknown }).brave;
    }
  });

  for (const [lang, coarse, key, word] of [
    ['en', true, 'chrome_touch', 'tap the icon'],
    ['en', false, 'chrome', 'click the icon'],
    ['ja', true, 'chrome_touch', 'タップ'],
    ['ja', false, 'chrome', 'クリック'],
  ] as const) {
    it(`${lang}: blocked in Chrome, the next step says "${word}" on a ${coarse ? 'touch screen' : 'mouse or trackpad'}`, async () => {
      const matchMedia = vi.fn((query: string) => ({ matches: query === '(pointer: coarse)' && coarse, media: query }));
      vi.stubGlobal('matchMedia', matchMedia);
      vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36');
      await renderIn(lang, <EnableFailureMessage failure="blocked" />);
      expect(failureTexts()[1]).toBe(tr(lang, `device:fix.unblock.${key}`));
      expect(failureTexts()[1]).toContain(word);
      expect(matchMedia).toHaveBeenCalledWith('(pointer: coarse)');
    });
  }

  it('ja: in the guide (diagnose), a failure is answered with its diagnosis, not with the same button again', async () => {
    installFakePush({ permission: 'granted', prompt: 'granted', subscribed: false, subscribeError: new DOMException('Registration failed - push service error', 'AbortError') });
    mockFetch(ROUTES);
    const onFailed = vi.fn();
    await renderIn('ja', <EnableNotificationsButton diagnose onFailed={onFailed} />);
    fireEvent.click(screen.getByRole('button', { name: tr('ja', 'notifications:enable') }));
    await waitFor(() => expect(failureTexts()).toEqual([tr('ja', 'notifications:errors.pushService'), tr('ja', 'notifications:next.pushService.other')]));
    expect(onFailed).toHaveBeenCalledWith('pushService');
    expect(screen.queryByRole('button', { name: tr('ja', 'notifications:enable') })).toBeNull();
  });

  it('en: success says so, and registers the subscription with the server', async () => {
    const push = installFakePush({ permission: 'default', prompt: 'granted', subscribed: false });
    const fetch = mockFetch(ROUTES);
    await renderIn('en', <NotificationToggle />);
    fireEvent.click(await screen.findByRole('button', { name: 'Enable notifications' }));
    await waitFor(() => expect(toastTexts()).toEqual([{ role: 'status', text: 'Notifications enabled.' }]));
    expect(push.Notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls.map(([u]) => u)).toContain('/api/notifications?action=subscribe');
    expect(await screen.findByRole('button', { name: 'Notifications on' })).toBeDisabled();
  });

  it('ja: already blocked, the toggle is disabled and says why; nothing is asked', async () => {
    const push = installFakePush({ permission: 'denied', prompt: 'denied', subscribed: false });
    mockFetch(ROUTES);
    await renderIn('ja', <NotificationToggle />);
    const button = await screen.findByRole('button', { name: tr('ja', 'notifications:blockedShort') });
    expect(button).toBeDisabled();
    expect(screen.getByText(tr('ja', 'notifications:blocked'))).toBeVisible();
    expect(button).toHaveAccessibleDescription(tr('ja', 'notifications:blocked'));
    expect(push.Notification.requestPermission).not.toHaveBeenCalled();
  });

  it('en: offline, enabling is disabled and says why in words; nothing is asked', async () => {
    const push = installFakePush({ permission: 'default', prompt: 'granted', subscribed: false });
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    mockFetch(ROUTES);
    await renderIn('en', <EnableNotificationsButton />);
    const button = screen.getByRole('button', { name: tr('en', 'notifications:enable') });
    expect(button).toBeDisabled();
    expect(screen.getByText(tr('en', 'notifications:offline.enable'))).toBeVisible();
    expect(button).toHaveAccessibleDescription(tr('en', 'notifications:offline.enable'));
    fireEvent.click(button);
    expect(push.Notification.requestPermission).not.toHaveBeenCalled();
    online.mockRestore();
  });
});

describe('enabling notifications: the server asks for sign-in (401 on subscribe)', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: the spec's "user authentication is required" text`, async () => {
      installFakePush({ permission: 'default', prompt: 'granted', subscribed: false });
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      mockFetch({
        'GET /api/notifications/vapid-public-key': () => ok({ public_key: VAPID }),
        'POST /api/notifications': () =>
          json(401, { success: false, error: { code: 'AUTHENTICATION_REQUIRED', message: 'sign in' }, error_type: 'AUTHENTICATION_REQUIRED' }),
      });
      await renderIn(lang, <EnableNotificationsButton />);
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'notifications:enable') }));
      await waitFor(() => expect(failureTexts()).toEqual([tr(lang, 'notifications:errors.authRequired'), tr(lang, 'notifications:next.authRequired')]));
      expect(tr(lang, 'notifications:errors.authRequired')).toBe(lang === 'ja' ? 'ユーザー認証が必要です' : 'User authentication is required');
    });
  }
});

describe('push without a service worker (navigator.serviceWorker undefined)', () => {
  /** Notification and PushManager exist, but the browser gives no service worker here (a private window, not https). */
  function noServiceWorker({ present }: { present: boolean }) {
    const Notification = { permission: 'default' as NotificationPermission, requestPermission: vi.fn(async () => 'granted' as const) };
    vi.stubGlobal('Notification', Notification);
    vi.stubGlobal('PushManager', function PushManager() {});
    // present: the property is there and undefined; otherwise it is missing altogether
    if (present) Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: undefined });
    return Notification;
  }

  for (const present of [true, false]) {
    for (const lang of ['ja', 'en'] as const) {
      it(`${lang}${present ? '' : ', the property missing too'}: enabling says the service worker message, asks nothing, sends nothing, and nothing crashes`, async () => {
        const Notification = noServiceWorker({ present });
        const fetch = mockFetch({});
        await renderIn(
          lang,
          <>
            <NotificationToggle />
            <TestNotificationButton />
            <EnableNotificationsButton />
          </>,
        );
        // the state: this browser cannot receive notifications here
        expect(await screen.findByText(tr(lang, 'notifications:unsupportedShort'))).toHaveAttribute('title', tr(lang, 'notifications:unsupported'));
        const test = screen.getByRole('button', { name: tr(lang, 'notifications:test.button') });
        expect(test).toBeDisabled();
        // trying anyway (the device notice's button): the service-worker cause and what to do
        fireEvent.click(screen.getByRole('button', { name: tr(lang, 'notifications:enable') }));
        await waitFor(() => expect(failureTexts()).toEqual([tr(lang, 'notifications:errors.serviceWorker'), tr(lang, 'notifications:next.serviceWorker')]));
        expect(Notification.requestPermission).not.toHaveBeenCalled();
        expect(fetch).not.toHaveBeenCalled();
      });
    }
  }

  it('the push client answers without throwing: no subscription, sign-out has nothing to undo, enabling fails with code serviceWorker', async () => {
    noServiceWorker({ present: true });
    const push = await import('../../lib/push/pushClient');
    expect(push.pushSupported()).toBe(false);
    await expect(push.currentSubscription()).resolves.toBeNull();
    await expect(push.disableNotifications()).resolves.toBeUndefined();
    await expect(push.enableNotifications()).rejects.toMatchObject({ name: 'PushError', code: 'serviceWorker' });
  });
});
