/**
 * Pure parts of the service worker (push payload -> notification, notification actions,
 * click targets). Kept free of ServiceWorkerGlobalScope so they run under Vitest.
 *
 * The server sends api.md's Declarative Web Push payload, the OpenAPI document's `PushMessage`:
 * {web_push: 8030, notification: {title, body, navigate, tag, lang, silent, require_interaction,
 * data: {type, reminder_id?, log_id?, action_token?, kind?, late?, by?}, actions?}, app_badge?,
 * mutable: true}. A `done` push (someone else completed a shared reminder) replaces its
 * notification (same tag) quietly. Browsers without declarative support hand it to this worker, which reads it
 * into the flat shape below (the older flat payload {type, title, body, url, ...} is read too).
 */
import { ACK_PATH, HANDLE_PATH } from '../lib/api';
import type { AckInput, HandleInput, PushMessage } from '../lib/types';
import { appName as enAppName } from '../locales/en/common.json';
import { push as enPush } from '../locales/en/notifications.json';
import { appName as jaAppName } from '../locales/ja/common.json';
import { push as jaPush } from '../locales/ja/notifications.json';

type PushNotification = PushMessage['notification'];
type PushData = PushNotification['data'];
/** A payload as it arrives: the server's fields by name, each possibly missing or of another type. */
type Untrusted<T> = { [K in keyof T]?: unknown };

export interface PushPayload {
  type: PushData['type'];
  reminder_id?: string;
  log_id?: string;
  action_token?: string;
  title: string;
  body: string;
  url: string;
  tag?: string;
  lang: PushNotification['lang'];
  late?: boolean;
  /** the title already carries the late mark (the declarative payload's does) */
  late_in_title?: boolean;
  /** the delivery log entry's kind: occurrence, snooze, send_now... */
  kind?: string;
  /** the number for the app icon's badge (overdue reminders) */
  badge?: number;
  /** a `done` push: who completed it (their address) */
  by?: string;
}

// The app's own texts (locales/*/notifications.json "push", common.json appName), read here
// without i18next, which stays out of the worker.
const TEXT = {
  ja: { fallbackTitle: jaAppName, ...jaPush },
  en: { fallbackTitle: enAppName, ...enPush },
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** Never throws: a malformed push still shows a (generic) notification, as iOS requires. */
export function parsePushPayload(raw: unknown, fallbackLang: 'ja' | 'en' = 'ja'): PushPayload {
  let obj: Record<string, unknown> = {};
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object') obj = parsed as Record<string, unknown>;
      else obj = { body: raw };
    } catch {
      obj = { body: raw };
    }
  } else if (raw && typeof raw === 'object') obj = raw as Record<string, unknown>;

  // Declarative Web Push: flatten notification and its data.
  const message: Untrusted<PushMessage> = obj;
  const declarative = message.web_push === 8030 && !!message.notification && typeof message.notification === 'object';
  if (declarative) {
    const n = message.notification as Untrusted<PushNotification>;
    const data = (n.data && typeof n.data === 'object' ? n.data : {}) as Untrusted<PushData>;
    obj = { ...data, title: n.title, body: n.body, url: n.navigate, tag: n.tag, lang: n.lang, app_badge: message.app_badge };
  }
  const badge = typeof obj.app_badge === 'number' && Number.isInteger(obj.app_badge) && obj.app_badge >= 0 ? obj.app_badge : undefined;
  const kind = str(obj.kind);

  const lang = obj.lang === 'en' || obj.lang === 'ja' ? obj.lang : fallbackLang;
  const reminderId = str(obj.reminder_id);
  const logId = str(obj.log_id);
  const actionToken = str(obj.action_token);
  const tag = str(obj.tag);
  const by = str(obj.by);
  return {
    type: obj.type === 'test' || obj.type === 'done' ? obj.type : 'reminder',
    ...(reminderId ? { reminder_id: reminderId } : {}),
    ...(logId ? { log_id: logId } : {}),
    ...(actionToken ? { action_token: actionToken } : {}),
    title: str(obj.title) ?? TEXT[lang].fallbackTitle,
    body: str(obj.body) ?? TEXT[lang].fallbackBody,
    url: str(obj.url) ?? (lang === 'en' ? '/en/reminders' : '/reminders'),
    ...(tag ? { tag } : {}),
    lang,
    ...(obj.late === true ? { late: true, ...(declarative ? { late_in_title: true } : {}) } : {}),
    ...(kind ? { kind } : {}),
    ...(badge !== undefined ? { badge } : {}),
    ...(by ? { by } : {}),
  };
}

export interface NotificationSpec {
  title: string;
  options: NotificationOptions & {
    actions?: { action: string; title: string }[];
    requireInteraction?: boolean;
    renotify?: boolean;
  };
}

/**
 * Audible, stays until acted on, Complete/Snooze actions for reminders with ids. A `done` push
 * is quiet: it replaces the reminder's notification (same tag) as sent, without actions.
 */
export function buildNotification(p: PushPayload, supportsActions = true): NotificationSpec {
  const t = TEXT[p.lang];
  const common = { body: p.body, tag: p.tag ?? p.reminder_id ?? 'hibiki', icon: '/icons/icon-192.png', badge: '/icons/icon-192.png', lang: p.lang, data: p };
  if (p.type === 'done') return { title: p.title, options: { ...common, renotify: false, silent: true, requireInteraction: false } };
  const canAct = p.type === 'reminder' && !!p.reminder_id && !!p.log_id;
  return {
    title: p.late && !p.late_in_title ? t.lateTitle.replace('{{title}}', () => p.title) : p.title,
    options: {
      ...common,
      renotify: true,
      silent: false,
      requireInteraction: p.type === 'reminder',
      ...(canAct && supportsActions
        ? {
            actions: [
              { action: 'complete', title: t.complete },
              { action: 'snooze', title: t.snooze },
            ],
          }
        : {}),
    },
  };
}

/** A POST for the service worker to send with the app's API client. */
export interface ApiCall<B> {
  url: string;
  body: B;
}

/** The API call for a Complete/Snooze press (authorized by the push's action_token). */
export function actionRequest(action: string, data: Partial<PushPayload> | undefined): ApiCall<HandleInput> | null {
  if (action !== 'complete' && action !== 'snooze') return null;
  if (!data?.reminder_id || !data.log_id) return null;
  return {
    url: HANDLE_PATH,
    body: {
      reminder_id: data.reminder_id,
      log_id: data.log_id,
      action,
      ...(data.action_token ? { action_token: data.action_token } : {}),
    },
  };
}

/** The acknowledgement that a notification was shown on this device (never for a `done` push). */
export function ackRequest(data: Partial<PushPayload>, endpoint?: string): ApiCall<AckInput> | null {
  if (data.type === 'done' || !data.log_id || !data.action_token) return null;
  return {
    url: ACK_PATH,
    body: { log_id: data.log_id, action_token: data.action_token, ...(endpoint ? { endpoint } : {}) },
  };
}

/** Where a click goes: the payload url if same-origin, else the reminders page. */
export function clickTarget(data: Partial<PushPayload> | undefined, origin: string): string {
  const fallback = data?.lang === 'en' ? '/en/reminders' : '/reminders';
  try {
    const u = new URL(data?.url ?? fallback, origin);
    if (u.origin !== origin) return new URL(fallback, origin).href;
    if (data?.reminder_id && !u.searchParams.has('reminder')) u.searchParams.set('reminder', data.reminder_id);
    return u.href;
  } catch {
    return new URL(fallback, origin).href;
  }
}

/** Pick an open window of the app to reuse (focused first, then any same-origin one). */
export function pickClient<C extends { url: string; focused?: boolean }>(clients: readonly C[], origin: string): C | undefined {
  const ours = clients.filter((c) => {
    try {
      return new URL(c.url).origin === origin;
    } catch {
      return false;
    }
  });
  return ours.find((c) => c.focused) ?? ours[0];
}

/** Requests the service worker must never serve from cache. */
export function isApiRequest(url: URL): boolean {
  return url.pathname.startsWith('/api/') || url.pathname === '/api' || url.pathname === '/metrics';
}
