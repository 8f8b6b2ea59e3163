/**
 * Shapes from docs/spec/api.md. Where the server's OpenAPI document describes a shape fully, the
 * type is generated from it (`api-schema.ts`, by `npm run api-types` from `openapi.json`, which a
 * Rust test keeps equal to the server's document; `npm run api-types:check` fails on drift).
 */
import type { components } from './api-schema';

type Schemas = components['schemas'];
export interface User {
  id: string;
  email: string;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

/** POST /api/auth/otp; `code_sign_in` false while code sign-in is paused (the email has only the link). */
export type OtpRequestAnswer = Schemas['OtpSent'];

export interface VerifyAnswer {
  access_token?: string;
  token_type?: 'Bearer';
  expires_in?: number;
  user: User;
  is_new_user?: boolean;
}

export interface SessionAnswer {
  user: User;
  is_admin: boolean;
}

export type Weekday = Schemas['Day'];
export const WEEKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/**
 * How a reminder repeats: a pattern (`kind`: none, hourly (interval_hours), daily, weekly,
 * weekdays, custom (days), monthly (day, or week + weekday), yearly; `interval`) and its shape
 * (`until` or `count`, `skip`, `holidays`), as one flat object.
 */
export type Recurrence = Schemas['Recurrence'];
/** What a Japanese public holiday does to an occurrence on it. */
export type HolidayRule = Schemas['HolidayRule'];

export type RecurrenceKind = Recurrence['kind'];
export type Alert = Schemas['Alert'];
export type RepeatUntilDone = Schemas['RepeatUntilDone'];
/** POST /api/calendar/token: the new secret feed URL. */
export type CalendarUrl = Schemas['CalendarUrl'];
/** The kinds the reminder dialog offers, in its order (each has a text in reminders.json). */
export const RECURRENCE_KINDS: readonly RecurrenceKind[] = [
  'none',
  'hourly',
  'daily',
  'weekly',
  'weekdays',
  'custom',
  'monthly',
  'yearly',
];

export interface ReminderInput {
  title: string;
  description?: string | null;
  /** RFC 3339 with offset */
  send_at: string;
  timezone?: string;
  recurrence?: Recurrence;
  /** rings before the time (`before_minutes` > 0); the default `[{before_minutes: 0}]` is at the time only */
  alerts?: Alert[];
  /** rings again every `every_minutes` until Complete or Snooze, at most `max_times` more; null turns it off */
  repeat_until_done?: RepeatUntilDone | null;
  send_to?: string[] | null;
  /** any JSON object (the schema names no fields); the app sends none */
  metadata?: Reminder['metadata'];
}

/**
 * A reminder as the API answers it. `scheduled_at` is the next instant it rings (the snooze
 * while snoozed, an overdue one's past time), null once completed.
 */
export type Reminder = Schemas['Reminder'];

export type ReminderStatusFilter = 'active' | 'archived' | 'all';

export interface Occurrences {
  occurrences: string[];
}

export type DeliveryKind = Schemas['EntryKind'];
export type DeliveryStatus = Schemas['EntryStatus'];
export type DeviceDelivery = Schemas['DeviceDelivery'];
/** GET /api/reminders/{id}/logs entries */
export type DeliveryLog = Schemas['DeliveryLog'];
/** POST /api/reminders/{id}/send: to how many devices, or by email instead */
export type SendNowAnswer = Schemas['SendNowAnswer'];
/** A device in GET /api/notifications/subscriptions. */
export type Device = Schemas['Subscription'];

/** The delivery states and actions a log entry may report (older servers' names too), each with a text. */
export const LOG_STATES = [
  'pending',
  'queued',
  'sending',
  'sent',
  'delivered',
  'shown',
  'failed',
  'no_devices',
  'missed',
  'cancelled',
  'emailed',
  'gone',
  'late',
  'complete',
  'completed',
  'snooze',
  'snoozed',
] as const;

export const EMAIL_FALLBACK_CHOICES = [1, 5, 15, 30] as const;

export const SNOOZE_PRESETS = [5, 10, 15, 30, 60] as const;

/** GET/PUT /api/settings (`email_fallback_minutes` null = off). */
export type Settings = Schemas['Settings'];
/** `GET /api/site`: the operator's details and the error reporter's settings (null = off). */
export type Site = Schemas['Site'];
export type Operator = Schemas['Operator'];
export type ErrorReporting = Schemas['ErrorReporting'];

export interface PushSubscriptionInput {
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  device_info: { user_agent: string; platform: string; language: string; timezone: string };
}

/** Delivery counts over a window (`/api/status` deliveries_5m / deliveries_1h). */
export interface DeliveryCounts {
  sent: number;
  failed: number;
}

/** One 5-minute bucket of `/api/status` timeline_1h (12 of them, oldest first). */
export interface StatusBucket {
  /** RFC 3339 UTC start of the bucket */
  start: string;
  sent: number;
  failed: number;
  lateness_p99_ms: number | null;
}

/**
 * GET /api/status. Fields may be missing or null on other server versions (timeline_1h is newer
 * than the rest); the status page reads it through `readServerStatus`, which tolerates that.
 */
export interface ServerStatus {
  scheduler_last_tick?: string | null;
  lateness_1h?: { p50_ms: number | null; p95_ms: number | null; p99_ms: number | null; max_ms: number | null };
  /** -1 when the queue could not be read */
  queue_depth?: number;
  deliveries_5m?: DeliveryCounts;
  deliveries_1h?: DeliveryCounts;
  timeline_1h?: StatusBucket[];
  [key: string]: unknown;
}

/** One hourly bucket of `/api/admin/stats` timeline_24h (24 of them, oldest first). */
export interface AdminBucket {
  start: string;
  sent: number;
  failed: number;
}

/** GET /api/admin/stats (timeline_24h is newer than the rest; any field may be missing). */
export interface AdminStats {
  users?: number;
  active_reminders?: number;
  deliveries_24h?: number;
  failures_24h?: number;
  queue_depth?: number;
  timeline_24h?: AdminBucket[];
  [key: string]: unknown;
}

/** One user in GET /api/admin/users (never reminder contents). Times are RFC 3339. */
export interface AdminUserRow {
  id: string;
  email: string;
  is_active: boolean;
  created_at: string;
  last_active_at: string;
  active_reminders: number;
  archived_reminders: number;
}

/** GET /api/admin/users?page=&per_page= (page is 1-based; per_page 1..100, default 50). */
export interface AdminUsersPage {
  users: AdminUserRow[];
  page: number;
  per_page: number;
  total: number;
}

export interface HealthDetails {
  status: 'ok' | 'degraded';
  checks: Record<string, unknown>;
}

/** One of the user's sessions in `GET /api/auth/sessions`: `label` is a short device label from the User-Agent ("iPhone · Safari"), maybe empty; `current` is the one this request came with. */
export type AuthSession = Schemas['SessionListed'];

/** `POST /api/auth/verify-link` with `{token, peek: true}`: which account the link opens, masked (`a***@example.com`); spends nothing. */
export type LinkPeekAnswer = Schemas['LinkPeek'];
