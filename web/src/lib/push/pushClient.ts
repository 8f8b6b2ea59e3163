/**
 * Browser push: permission, subscription and the server's subscribe/test endpoints.
 * Errors carry a `code` the UI maps to texts (namespace `notifications`).
 */
import { api, isApiError } from '../api';
import { browserTimeZone } from '../zonedTime';

export type PushErrorCode =
  | 'unsupported'
  | 'blocked'
  | 'serviceWorker'
  /** the browser's push service refused or could not be reached (Brave without Google's push, a private window, a managed browser) */
  | 'pushService'
  | 'config'
  | 'network'
  | 'authRequired'
  | 'failed';

export class PushError extends Error {
  constructor(readonly code: PushErrorCode, message?: string) {
    super(message ?? code);
    this.name = 'PushError';
  }
}

/**
 * The service worker container, or null where the browser gives none: outside https, and in some
 * browsers' private windows, where `navigator.serviceWorker` is there but undefined.
 */
export function serviceWorkerContainer(): ServiceWorkerContainer | null {
  return typeof navigator === 'undefined' ? null : ((navigator as { serviceWorker?: ServiceWorkerContainer }).serviceWorker ?? null);
}

/** The browser has the push APIs (Notification, PushManager), whether or not it gives a service worker here. */
function pushApis(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window && 'PushManager' in window;
}

/** This browser can receive push here: the push APIs and a service worker. */
export function pushSupported(): boolean {
  return pushApis() && serviceWorkerContainer() !== null;
}

export function notificationPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** URL-safe base64 (VAPID public key) to bytes. */
export function urlBase64ToUint8Array(base64: string): Uint8Array<ArrayBuffer> {
  const padded = (base64 + '='.repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(padded);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function bufferToBase64Url(buf: ArrayBuffer | null): string {
  if (!buf) return '';
  let s = '';
  for (const b of new Uint8Array(buf)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a);
  return x.every((v, i) => v === b[i]);
}

async function registration(timeoutMs = 10_000): Promise<ServiceWorkerRegistration> {
  const sw = serviceWorkerContainer();
  if (!sw) throw new PushError('serviceWorker');
  const ready = sw.ready;
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new PushError('serviceWorker')), timeoutMs));
  return Promise.race([ready, timeout]);
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  const sw = pushApis() ? serviceWorkerContainer() : null;
  if (!sw) return null;
  const reg = await sw.getRegistration();
  return (await reg?.pushManager.getSubscription()) ?? null;
}

function deviceInfo() {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  return {
    user_agent: navigator.userAgent,
    platform: nav.userAgentData?.platform ?? navigator.platform ?? '',
    language: navigator.language,
    timezone: browserTimeZone(),
  };
}

async function sendSubscription(sub: PushSubscription): Promise<void> {
  const json = sub.toJSON();
  await api.notifications.subscribe({
    subscription: {
      endpoint: sub.endpoint,
      keys: {
        p256dh: json.keys?.p256dh ?? bufferToBase64Url(sub.getKey('p256dh')),
        auth: json.keys?.auth ?? bufferToBase64Url(sub.getKey('auth')),
      },
    },
    device_info: deviceInfo(),
  });
}

function mapError(e: unknown): PushError {
  if (e instanceof PushError) return e;
  if (isApiError(e)) {
    if (e.status === 401) return new PushError('authRequired', e.message);
    if (e.code === 'ERR_NETWORK' || e.code === 'TIMEOUT') return new PushError('network', e.message);
    return new PushError('failed', e.message);
  }
  if (e instanceof DOMException && e.name === 'NotAllowedError') return new PushError('blocked');
  return new PushError('failed', e instanceof Error ? e.message : String(e));
}

/** Ask permission (if needed), subscribe with the server's VAPID key, register it. */
export async function enableNotifications(): Promise<PushSubscription> {
  try {
    if (!pushApis()) throw new PushError('unsupported');
    // Without a service worker there is nothing to subscribe with: say so before asking anything.
    if (!serviceWorkerContainer()) throw new PushError('serviceWorker');
    if (Notification.permission === 'denied') throw new PushError('blocked');
    const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
    if (permission !== 'granted') throw new PushError('blocked');
    const reg = await registration();
    let key: string;
    try {
      key = (await api.notifications.vapidPublicKey()).public_key;
    } catch (e) {
      throw isApiError(e) && (e.code === 'ERR_NETWORK' || e.code === 'TIMEOUT') ? e : new PushError('config');
    }
    if (!key) throw new PushError('config');
    const appKey = urlBase64ToUint8Array(key);
    let sub = await reg.pushManager.getSubscription();
    if (sub && !sameKey(sub.options.applicationServerKey, appKey)) {
      await sub.unsubscribe();
      sub = null;
    }
    sub ??= await browserSubscribe(reg, appKey);
    await sendSubscription(sub);
    lastFailure = null;
    serverFailing = false;
    setSubscriptionHealth('ok');
    rememberEnabled();
    markTurnedOff(false);
    return sub;
  } catch (e) {
    const err = mapError(e);
    lastFailure = err.code;
    notifyHealth();
    throw err;
  }
}

/**
 * The browser's own subscribe. Permission is granted by now, so a refusal here is the push
 * service's (Brave without "Use Google services for push messaging", a private window, a browser
 * whose policy turns push off), not the person's.
 */
async function browserSubscribe(reg: ServiceWorkerRegistration, appKey: Uint8Array<ArrayBuffer>): Promise<PushSubscription> {
  try {
    return await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: appKey });
  } catch (e) {
    if (typeof Notification !== 'undefined' && Notification.permission === 'denied') throw new PushError('blocked');
    throw new PushError('pushService', e instanceof Error ? e.message : String(e));
  }
}

let lastFailure: PushErrorCode | null = null;

/** Why the last attempt to enable notifications here failed (this page's life), or null. */
export function lastEnableFailure(): PushErrorCode | null {
  return lastFailure;
}

const ENABLED_ONCE = 'hibiki.pushEnabledOnce';

/** This browser was subscribed here before (so a lost subscription "stopped", not "never set up"). */
export function wasEverEnabled(): boolean {
  try {
    return localStorage.getItem(ENABLED_ONCE) === '1';
  } catch {
    return false;
  }
}

function rememberEnabled(): void {
  try {
    localStorage.setItem(ENABLED_ONCE, '1');
  } catch {
    // private mode: the notice then speaks as for a device never set up
  }
}

/** Switched off on purpose (or signed out): it did not "stop", it is not set up any more. */
function forgetEnabled(): void {
  try {
    localStorage.removeItem(ENABLED_ONCE);
  } catch {
    // nothing stored
  }
}

const TURNED_OFF = 'hibiki.pushTurnedOff';

/** The person turned this device off here (not a sign-out): the start-up check leaves it off. */
function turnedOffHere(): boolean {
  try {
    return localStorage.getItem(TURNED_OFF) === '1';
  } catch {
    return false;
  }
}

function markTurnedOff(off: boolean): void {
  try {
    if (off) localStorage.setItem(TURNED_OFF, '1');
    else localStorage.removeItem(TURNED_OFF);
  } catch {
    // private mode: nothing kept
  }
}

/** Stops this device receiving; `byPerson` (turned off or removed in Settings) keeps it off at the next start. */
export async function disableNotifications({ byPerson = false }: { byPerson?: boolean } = {}): Promise<void> {
  if (byPerson) markTurnedOff(true);
  const sub = await currentSubscription();
  if (!sub) return;
  try {
    await api.notifications.unsubscribe(sub.endpoint);
  } finally {
    await sub.unsubscribe();
    forgetEnabled();
    serverFailing = false;
    setSubscriptionHealth('unknown');
  }
}

/**
 * Subscription health (decisions.md "Notifications"): on every app start the app compares its
 * subscription with the server's (its list of devices, when the server offers it, and its VAPID
 * key) and silently re-subscribes when they differ and permission is granted. When that fails,
 * the health indicator says this device has stopped receiving.
 */
export type SubscriptionHealth = 'unknown' | 'ok' | 'resubscribed' | 'lost';

let subscriptionHealth: SubscriptionHealth = 'unknown';
/** the server lists this device's subscription as failing (its last delivery could not be made) */
let serverFailing = false;
const healthListeners = new Set<() => void>();

export function getSubscriptionHealth(): SubscriptionHealth {
  return subscriptionHealth;
}

/** The server says this device's last notification could not be delivered (from the start-up check). */
export function isServerFailing(): boolean {
  return serverFailing;
}

export function subscribeSubscriptionHealth(fn: () => void): () => void {
  healthListeners.add(fn);
  return () => healthListeners.delete(fn);
}

function notifyHealth(): void {
  for (const l of healthListeners) l();
}

function setSubscriptionHealth(next: SubscriptionHealth): void {
  subscriptionHealth = next;
  notifyHealth();
}

export interface SubscriptionFacts {
  /** this device's subscription endpoint, if any */
  endpoint: string | null;
  /** the subscription was made with the server's current VAPID key */
  keyMatches: boolean;
  /** the endpoints the server knows for this user, or null when it could not say */
  serverEndpoints: readonly string[] | null;
}

/** Pure: is this device's subscription in order, or must it subscribe again? */
export function subscriptionPlan(f: SubscriptionFacts): 'ok' | 'resubscribe' {
  if (!f.endpoint || !f.keyMatches) return 'resubscribe';
  if (f.serverEndpoints && !f.serverEndpoints.includes(f.endpoint)) return 'resubscribe';
  return 'ok';
}

interface ServerDevice {
  endpoint: string;
  failing: boolean;
}

function devicesOf(list: unknown): ServerDevice[] | null {
  if (!Array.isArray(list)) return null;
  return list
    .map((d: unknown) => {
      const o = d as { endpoint?: unknown; status?: unknown; subscription?: { endpoint?: unknown } } | null;
      const endpoint = typeof o?.endpoint === 'string' ? o.endpoint : typeof o?.subscription?.endpoint === 'string' ? o.subscription.endpoint : null;
      return endpoint === null ? null : { endpoint, failing: o?.status === 'failing' };
    })
    .filter((e): e is ServerDevice => e !== null);
}

/** App start (signed in): check and, when needed, repair this device's subscription. */
export async function syncSubscription(): Promise<boolean> {
  if (!pushSupported() || Notification.permission !== 'granted') {
    setSubscriptionHealth('unknown');
    return false;
  }
  try {
    const [keyAnswer, local, server] = await Promise.all([
      api.notifications.vapidPublicKey(),
      currentSubscription(),
      api.notifications.subscriptions().then(devicesOf, () => null),
    ]);
    serverFailing = !!local && !!server?.some((d) => d.endpoint === local.endpoint && d.failing);
    const plan = subscriptionPlan({
      endpoint: local?.endpoint ?? null,
      keyMatches: !!local && !!keyAnswer?.public_key && sameKey(local.options.applicationServerKey, urlBase64ToUint8Array(keyAnswer.public_key)),
      serverEndpoints: server?.map((d) => d.endpoint) ?? null,
    });
    if (plan === 'ok') {
      setSubscriptionHealth('ok');
      return true;
    }
    // No subscription here because the person turned this device off: repairing would switch
    // it back on behind their back; the notice offers to enable it instead.
    if (!local && turnedOffHere()) {
      setSubscriptionHealth('unknown');
      return false;
    }
  } catch (e) {
    // offline or server trouble: say nothing new about this device
    if (isApiError(e) && (e.code === 'ERR_NETWORK' || e.code === 'TIMEOUT')) return false;
  }
  try {
    await enableNotifications();
    setSubscriptionHealth('resubscribed');
    return true;
  } catch (e) {
    setSubscriptionHealth(e instanceof PushError && e.code === 'network' ? 'unknown' : 'lost');
    return false;
  }
}

export type TestNotificationResult = 'sent' | 'notSubscribed' | 'rateLimited' | 'failed';

export async function sendTestNotification(): Promise<TestNotificationResult> {
  try {
    await api.notifications.test();
    return 'sent';
  } catch (e) {
    if (isApiError(e, 'SUBSCRIPTION_NOT_FOUND')) return 'notSubscribed';
    if (isApiError(e, 'RATE_LIMITED')) return 'rateLimited';
    return 'failed';
  }
}
