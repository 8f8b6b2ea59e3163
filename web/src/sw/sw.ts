/// <reference lib="webworker" />
/**
 * Hibiki service worker: precached app shell (Workbox injectManifest), SPA navigation
 * fallback, Web Push display/ack, notification actions and clicks, subscription renewal.
 * API requests are never cached here (the encrypted IndexedDB cache handles offline data).
 * Its API calls go through the app's client (src/lib/api.ts): same paths, headers and envelope.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { api } from '../lib/api';
import type { PushSubscriptionInput } from '../lib/types';
import { ackRequest, actionRequest, buildNotification, clickTarget, parsePushPayload, pickClient, type PushPayload } from './logic';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Every app route is the SPA shell; API, metrics and files are not.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api(\/|$)/, /^\/metrics/, /\/[^/?]+\.[^/]+$/],
  }),
);

const fallbackLang = (): 'ja' | 'en' => (self.navigator.language?.toLowerCase().startsWith('ja') ? 'ja' : 'en');

self.addEventListener('push', (event) => {
  const payload = parsePushPayload(event.data?.text() ?? null, fallbackLang());
  const supportsActions = 'actions' in Notification.prototype;
  const { title, options } = buildNotification(payload, supportsActions);
  event.waitUntil(
    (async () => {
      await self.registration.showNotification(title, options);
      // The app icon's badge: the user's overdue reminders (where the Badging API exists).
      const nav = self.navigator as WorkerNavigator & { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
      if (payload.badge !== undefined) {
        await (payload.badge > 0 ? nav.setAppBadge?.(payload.badge) : nav.clearAppBadge?.())?.catch(() => undefined);
      }
      // An open app chimes (and may speak the title; a quiet `done` push does neither): tell every window.
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const w of windows) w.postMessage({ type: 'PUSH_RECEIVED', payload });
      const sub = await self.registration.pushManager.getSubscription().catch(() => null);
      // A `done` push is never acknowledged (ackRequest gives none).
      const ack = ackRequest(payload, sub?.endpoint);
      if (ack) await api.request('POST', ack.url, { body: ack.body }).catch(() => undefined);
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data as Partial<PushPayload> | undefined;
  const call = actionRequest(event.action, data);
  event.notification.close();
  if (call) {
    // Refused (an error status or envelope) or unreachable: open the app to do it there.
    event.waitUntil(
      api.request('POST', call.url, { body: call.body }).then(
        () => undefined,
        () => openApp(data),
      ),
    );
    return;
  }
  event.waitUntil(openApp(data));
});

async function openApp(data: Partial<PushPayload> | undefined): Promise<void> {
  const url = clickTarget(data, self.location.origin);
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const client = pickClient(windows, self.location.origin);
  if (client) {
    await client.focus();
    client.postMessage({ type: 'NAVIGATE_FROM_NOTIFICATION', url });
    return;
  }
  await self.clients.openWindow(url);
}

// The browser rotated the subscription: subscribe again with the same key and tell the server.
self.addEventListener('pushsubscriptionchange', (event) => {
  const e = event as Event & { oldSubscription?: PushSubscription | null; waitUntil(p: Promise<unknown>): void };
  e.waitUntil(
    (async () => {
      const key = e.oldSubscription?.options.applicationServerKey;
      if (!key) return;
      const sub = await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      const json = sub.toJSON();
      await api.notifications.subscribe({
        subscription: { endpoint: sub.endpoint, keys: json.keys as PushSubscriptionInput['subscription']['keys'] },
        device_info: {
          user_agent: self.navigator.userAgent,
          platform: '',
          language: self.navigator.language,
          timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        },
      });
    })(),
  );
});
