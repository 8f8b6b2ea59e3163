/**
 * The API's shapes (docs/spec/api.md), each generated from the server's OpenAPI document
 * (`api-schema.ts`, by `npm run api-types` from `openapi.json`, which a Rust test keeps equal to
 * the server's document; `npm run api-types:check` fails on drift). Here: names for them, and
 * the constants the app derives from them.
 */
import type { components } from './api-schema';

type Schemas = components['schemas'];
export type User = Schemas['User'];

/** POST /api/auth/otp; `code_sign_in` false while code sign-in is paused (the email has only the link). */
export type OtpRequestAnswer = Schemas['OtpSent'];

/** POST /api/auth/verify, /verify-link (without peek) and /dev-login: the new session. */
export type VerifyAnswer = Schemas['SessionIssued'];

/** GET /api/auth/session */
export type SessionAnswer = Schemas['SessionInfo'];

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
/** A step of repeat until done's escalation: after `after_times` unanswered repeats, to email, the person's channels or a member (`member_id`). */
export type EscalationStep = Schemas['EscalationStep'];
export type EscalateTo = Schemas['EscalateTo'];
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

/**
 * POST /api/reminders (and, any subset, PUT /api/reminders/{id}). `alerts` ring before the time
 * (`before_minutes` > 0; absent: at the time only); `repeat_until_done` rings again until
 * Complete or Snooze (null turns it off); `metadata` is any JSON object (the app sends none).
 */
export type ReminderInput = Schemas['ReminderInput'];

/**
 * A reminder as the API answers it. `scheduled_at` is the next instant it rings (the snooze
 * while snoozed, an overdue one's past time), null once completed.
 */
export type Reminder = Schemas['Reminder'];

/** GET /api/reminders?status= (default active). */
export type ReminderStatusFilter = Schemas['StatusFilter'];

/** POST /api/reminders/preview, GET /api/reminders/{id}/occurrences */
export type Occurrences = Schemas['Occurrences'];
/** One ring to come in a reminder's next notifications (occurrence, alert, repeat, snooze). */
export type Ring = Schemas['Ring'];

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
  'held',
] as const;

export const EMAIL_FALLBACK_CHOICES = [1, 5, 15, 30] as const;

export const SNOOZE_PRESETS = [5, 10, 15, 30, 60] as const;

/** GET/PUT /api/settings (`email_fallback_minutes` null = off; `quiet_hours`, `daily_brief` null = off). */
export type Settings = Schemas['Settings'];
/** Quiet hours: local `HH:MM` in the settings' zone, across midnight when `end` is before `start`. */
export type QuietHours = NonNullable<Settings['quiet_hours']>;
/** The daily brief: at local `time`, by `via` (`push`, `email` or a linked channel's id). */
export type DailyBrief = NonNullable<Settings['daily_brief']>;
/** POST /api/reminders/snooze-all: `snooze_minutes` (absent: the default snooze) or `snooze_until`. */
export type SnoozeAllInput = Schemas['SnoozeAll'];
/** POST /api/reminders/snooze-all's answer: how many occurrences it snoozed. */
export type SnoozeAllAnswer = Schemas['Snoozed'];
/** The ways the settings page offers for the daily brief (a channel's id, set elsewhere, is kept as it is). */
export const BRIEF_VIAS = ['push', 'email'] as const;
/** A channel besides Web Push and email (GET /api/channels): ntfy, webhook, Telegram or LINE; `pending` until Telegram or LINE is linked, `failing` after failed sends. */
export type Channel = Schemas['Channel'];
export type ChannelKind = Schemas['ChannelKind'];
export type ChannelStatus = Schemas['ChannelStatus'];
/** What a channel is used for: every ring (`rings`), and/or the fallback when no device showed a ring. */
export type ChannelUse = Schemas['ChannelUse'];
/** POST /api/channels: ntfy `{url, token?}`, webhook `{url}`, telegram and line `{}`. */
export type NewChannel = Schemas['NewChannel'];
/** PUT /api/channels/{id}: only what is given changes. */
export type ChannelPatch = Schemas['ChannelPatch'];
/**
 * POST /api/channels's answer: the channel, and what is shown only now: a webhook's `secret`,
 * Telegram's `link`, LINE's `code` and `friend_url`.
 */
export type CreatedChannel = Schemas['CreatedChannel'];
/** `GET /api/site`: the operator's details and the error reporter's settings (null = off). */
export type Site = Schemas['Site'];
export type Operator = Schemas['Operator'];
export type ErrorReporting = Schemas['ErrorReporting'];

/** POST /api/notifications?action=subscribe */
export type PushSubscriptionInput = Schemas['SubscribeRequest'];
/** POST /api/reminders?action=handle: Complete/Snooze; a push's action_token authorizes it without the session. */
export type HandleInput = Schemas['HandleRequest'];
/** POST /api/notifications?action=ack: a notification was shown on this device (`endpoint`). */
export type AckInput = Schemas['AckRequest'];
/** GET /api/notifications/vapid-public-key */
export type VapidPublicKey = Schemas['VapidPublicKey'];
/** The push payload the server sends (Declarative Web Push, `web_push: 8030`). */
export type PushMessage = Schemas['PushMessage'];

/** Delivery counts over a window (`/api/status` deliveries_5m / deliveries_1h). */
export type DeliveryCounts = Schemas['DeliveryCounts'];

/** One bucket of `/api/status` timeline_1h (5 minutes) or `/api/admin/stats` timeline_24h (an hour), oldest first. */
export type TimelineBucket = Schemas['TimelineBucket'];

/**
 * GET /api/status (`queue_depth` -1 when the queue could not be read). Another server version
 * may leave fields out: the status page reads it through `readServerStatus`, which tolerates that.
 */
export type ServerStatus = Schemas['StatusSummary'];

/** GET /api/admin/stats, read through `readAdminStats` (as tolerant as `readServerStatus`). */
export type AdminStats = Schemas['AdminStats'];

/** One user in GET /api/admin/users (never reminder contents). */
export type AdminUserRow = Schemas['AdminUser'];

/** GET /api/admin/users?page=&per_page= (page is 1-based; per_page 1..100, default 50). */
export type AdminUsersPage = Schemas['UserPage'];

/** GET /api/health (a 503 carries it too). */
export type HealthDetails = Schemas['Health'];

/** One of the user's sessions in `GET /api/auth/sessions`: `label` is a short device label from the User-Agent ("iPhone · Safari"), maybe empty; `current` is the one this request came with. */
export type AuthSession = Schemas['SessionListed'];

/** `POST /api/auth/verify-link` with `{token, peek: true}`: which account the link opens, masked (`a***@example.com`); spends nothing. */
export type LinkPeekAnswer = Schemas['LinkPeek'];

/** A list as `GET /api/lists` answers it for this reader: the default list first, `role` the reader's part. */
export type List = Schemas['List'];
export type InvitePeek = Schemas['InvitePeek'];
export type Member = Schemas['Member'];
export type Invite = Schemas['Invite'];
/** `POST /api/lists` (name 1–50 characters, trimmed; colour default blue). */
export type ListInput = Schemas['ListInput'];
/** `PUT /api/lists/{id}` (the owner only). */
export type ListPatch = Schemas['ListPatch'];
export type ListColour = Schemas['ListColour'];
/** Every list colour, in the order the swatches show (each has a swatch in light and dark and a name in lists.json). */
export const LIST_COLOURS: readonly ListColour[] = ['red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'gray'];
