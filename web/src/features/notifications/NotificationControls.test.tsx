/**
 * What the notification controls say when something goes wrong: the test notification's
 * SUBSCRIPTION_NOT_FOUND, RATE_LIMITED and other failures, and enabling with permission
 * refused, the browser's subscribe failing, no VAPID key, or the network gone. Each answer
 * shows its own toast, in the page's language. The browser's push parts are fakes.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../components/Toaster';
import { clearToasts } from '../../components/toast';
import { initI18n } from '../../i18n';
import type { Lang } from '../../lib/lang';
import { json, mockFetch, ok, type Handler } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { EnableNotificationsButton, NotificationToggle, TestNotificationButton } from './NotificationControls';

// A VAPID public key: 65 bytes, URL-safe base64.
const VAPID = 'B' + 'A'.repeat(86);

interface FakePush {
  permission: NotificationPermission;
  /** what the permission prompt answers */
  prompt: NotificationPermission;
  subscribed: boolean;
  /** the browser's pushManager.subscribe fails with this */
  subscribeError?: Error;
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
    await waitFor(() => expect(button).toHaveAttribute('title', tr('en', 'notifications:test.needsSubscription')));
    expect(button).toBeDisabled();
  });
});

describe('enabling notifications: each failure has its own toast', () => {
  const ROUTES = {
    'GET /api/notifications/vapid-public-key': () => ok({ public_key: VAPID }),
    'POST /api/notifications': () => json(204, null),
  };
  const CASES: { name: string; push: Partial<FakePush>; routes?: Record<string, Handler>; text: string }[] = [
    { name: 'permission refused at the prompt', push: { prompt: 'denied' }, text: 'notifications:errors.blocked' },
    { name: 'the prompt dismissed', push: { prompt: 'default' }, text: 'notifications:errors.blocked' },
    {
      name: 'the browser cannot subscribe',
      push: { subscribeError: new DOMException('Registration failed - push service error', 'AbortError') },
      text: 'notifications:enableFailed',
    },
    { name: 'the server has no VAPID key', push: {}, routes: { 'GET /api/notifications/vapid-public-key': error(500, 'INTERNAL_ERROR') }, text: 'notifications:errors.config' },
    {
      name: 'the network fails while registering',
      push: {},
      routes: { 'POST /api/notifications': () => Promise.reject(new TypeError('Failed to fetch')) },
      text: 'notifications:errors.network',
    },
  ];
  for (const lang of ['ja', 'en'] as const) {
    for (const c of CASES) {
      it(`${lang}: ${c.name}`, async () => {
        installFakePush({ permission: 'default', prompt: 'granted', subscribed: false, ...c.push });
        mockFetch({ ...ROUTES, ...c.routes });
        await renderIn(lang, <EnableNotificationsButton />);
        fireEvent.click(screen.getByRole('button', { name: tr(lang, 'notifications:enable') }));
        await waitFor(() => expect(toastTexts()).toEqual([{ role: 'alert', text: tr(lang, c.text) }]));
      });
    }
  }

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
    expect(button).toHaveAttribute('title', tr('ja', 'notifications:blocked'));
    expect(push.Notification.requestPermission).not.toHaveBeenCalled();
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
      await waitFor(() => expect(toastTexts()).toEqual([{ role: 'alert', text: tr(lang, 'notifications:errors.authRequired') }]));
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
        // trying anyway (the device notice's button): the spec's service-worker message
        fireEvent.click(screen.getByRole('button', { name: tr(lang, 'notifications:enable') }));
        await waitFor(() => expect(toastTexts()).toEqual([{ role: 'alert', text: tr(lang, 'notifications:errors.serviceWorker') }]));
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
