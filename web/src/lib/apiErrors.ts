/**
 * Every error the server can send, in the reader's language (decisions.md: no raw code and
 * no server English on a Japanese page). The server's `error.code` picks a text; a
 * VALIDATION_FAILED's `fields` {field: message} are matched message by message against the
 * server's own wording (api/src, common/src), with a per-field fallback ("check <field>") for
 * a message this table does not know yet. Texts live in the `errors` namespace; a caller loads
 * it with its own (`useTranslation(['reminders', 'errors'])`) and passes its `t`.
 */
import type { TFunction } from 'i18next';
import { isApiError } from './api';

export interface ErrorText {
  /** an i18n key with its namespace (`errors:…`) */
  key: string;
  params?: Record<string, string | number>;
}

/** Every `error.code` of docs/spec/api.md, and the client's own TIMEOUT / ERR_NETWORK. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'AUTHENTICATION_REQUIRED',
  'FORBIDDEN',
  'RATE_LIMITED',
  'REMINDER_LIMIT',
  'EMAIL_INVALID',
  'OTP_INVALID',
  'OTP_EXPIRED',
  'OTP_ATTEMPTS_EXCEEDED',
  'LINK_INVALID',
  'ENDPOINT_REJECTED',
  'ENDPOINT_IN_USE',
  'CSRF_REJECTED',
  'SUBSCRIPTION_NOT_FOUND',
  'OTP_REPLACED',
  'DEVICE_LIMIT',
  'LIST_LIMIT',
  'DEFAULT_LIST',
  'MEMBER_LIMIT',
  'ALREADY_MEMBER',
  'INVITE_INVALID',
  'INVITE_WRONG_ACCOUNT',
  'CHANNEL_UNAVAILABLE',
  'CHANNEL_LIMIT',
  'TOKEN_LIMIT',
  'INSUFFICIENT_SCOPE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
  'TIMEOUT',
  'ERR_NETWORK',
] as const;

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** The fields the server names, by their first path segment; others read "the input". */
export const FIELD_NAMES = [
  'title',
  'description',
  'send_at',
  'timezone',
  'recurrence',
  'alerts',
  'repeat_until_done',
  'send_to',
  'metadata',
  'snooze_minutes',
  'snooze_until',
  'count',
  'limit',
  'offset',
  'language',
  'default_snooze_minutes',
  'email_fallback_minutes',
  'morning_time',
  'evening_time',
  'speak_titles',
  'hide_notification_content',
  'confirm',
  'email',
  'code',
  'token',
  'subscription',
  'device_info',
  'endpoint',
  'page',
  'per_page',
  'action',
  'reminder_id',
  'log_id',
  'action_token',
] as const;

const KNOWN_FIELDS: ReadonlySet<string> = new Set(FIELD_NAMES);

type Params = (m: RegExpMatchArray) => Record<string, string | number>;

interface Rule {
  /** the field (first path segment) it applies to; '*' for any */
  field: string;
  message: RegExp;
  key: string;
  params?: Params;
}

const max: Params = (m) => ({ max: Number(m[1]) });
/** The server's wording, by field (common/src/reminder.rs, alarms.rs, settings.rs, recurrence/rules.rs, api/src/routes). */
const RULES: readonly Rule[] = [
  { field: 'title', message: /^Title is required$/, key: 'titleRequired' },
  { field: 'title', message: /^Title must be at most (\d+) characters$/, key: 'titleTooLong', params: max },
  { field: 'title', message: /^Title must not contain control characters$/, key: 'controlCharacters' },
  { field: 'description', message: /^Description must be at most (\d+) characters$/, key: 'descriptionTooLong', params: max },
  { field: 'description', message: /^Description must not contain control characters$/, key: 'controlCharacters' },
  { field: 'send_at', message: /^send_at must be in the future$/, key: 'sendAtPast' },
  { field: 'send_at', message: /^send_at must be within (\d+) years$/, key: 'sendAtTooFar', params: (m) => ({ years: Number(m[1]) }) },
  { field: 'timezone', message: /^Unknown time zone/, key: 'timezoneUnknown' },
  { field: 'send_to', message: /^send_to must list at most (\d+) device ids$/, key: 'sendToTooMany', params: max },
  { field: 'metadata', message: /^Metadata must be at most (\d+) bytes of JSON$/, key: 'metadataTooLarge', params: max },
  { field: 'recurrence', message: /^The hourly interval must be between 1 and (\d+) hours/, key: 'hourlyInterval', params: max },
  { field: 'recurrence', message: /^A custom recurrence needs at least one day\.$/, key: 'customNoDays' },
  { field: 'recurrence', message: /appears more than once in the custom recurrence\.$/, key: 'customDuplicateDay' },
  { field: 'recurrence', message: /^The interval must be between 1 and (\d+), but it is -?\d+\.$/, key: 'intervalRange', params: max },
  { field: 'recurrence', message: /^A monthly day must be between 1 and 31/, key: 'monthDay' },
  { field: 'recurrence', message: /^A monthly week must be between 1 and 5/, key: 'monthWeek' },
  { field: 'recurrence', message: /^A monthly recurrence takes a day or a week with a weekday, not both\.$/, key: 'monthDayAndWeek' },
  { field: 'recurrence', message: /^Give until or count, not both\.$/, key: 'untilAndCount' },
  { field: 'recurrence', message: /^count must be between 1 and (\d+)\.$/, key: 'countRange', params: max },
  { field: 'recurrence', message: /^At most (\d+) dates can be skipped\.$/, key: 'tooManySkips', params: max },
  { field: 'recurrence', message: /^A one-time reminder takes no until, count, skip or holidays\.$/, key: 'oneTimeShape' },
  { field: 'recurrence', message: /^a one-time reminder has no next occurrence to skip$/, key: 'skipOneTime' },
  { field: 'recurrence', message: /^the reminder has no next occurrence to skip$/, key: 'skipNoNext' },
  { field: 'alerts', message: /^at most (\d+) alerts$/, key: 'alertsTooMany', params: max },
  {
    field: 'alerts',
    message: /^before_minutes must be between 0 and (\d+)$/,
    key: 'alertBeforeRange',
    params: (m) => ({ days: Math.round(Number(m[1]) / 1440) }),
  },
  { field: 'repeat_until_done', message: /^every_minutes must be between 1 and (\d+)$/, key: 'repeatEvery', params: max },
  { field: 'repeat_until_done', message: /^max_times must be between 1 and (\d+)$/, key: 'repeatTimes', params: max },
  { field: 'snooze_until', message: /^give snooze_minutes or snooze_until, not both$/, key: 'snoozeBoth' },
  { field: 'snooze_until', message: /^snooze_until must be in the future$/, key: 'snoozePast' },
  { field: 'snooze_until', message: /^snooze_until must be within (\d+) days$/, key: 'snoozeTooFar', params: (m) => ({ days: Number(m[1]) }) },
  { field: 'snooze_minutes', message: /^snooze_minutes must be one of/, key: 'snoozePreset' },
  { field: 'default_snooze_minutes', message: /^default_snooze_minutes must be one of/, key: 'snoozePreset' },
  { field: 'count', message: /^count must be between 1 and (\d+)$/, key: 'previewCount', params: max },
  { field: 'limit', message: /^limit must be between 1 and (\d+)$/, key: 'pageLimit', params: max },
  { field: 'offset', message: /^offset must be 0 or more$/, key: 'pageOffset' },
  { field: 'language', message: /^language must be ja or en$/, key: 'language' },
  { field: 'email_fallback_minutes', message: /^email_fallback_minutes must be null or one of/, key: 'emailFallback' },
  { field: 'morning_time', message: /^morning_time must be a time HH:MM/, key: 'dayTime' },
  { field: 'evening_time', message: /^evening_time must be a time HH:MM/, key: 'dayTime' },
  { field: 'confirm', message: /^Type your email address to confirm$/, key: 'confirmEmail' },
  { field: 'email', message: /^only the developer addresses/, key: 'devLoginOnly' },
  { field: 'subscription', message: /must be (an uncompressed P-256 public key|16 bytes)/, key: 'pushKeys' },
  { field: 'device_info', message: /^device_info must be an object of at most/, key: 'deviceInfo' },
  { field: 'page', message: /^page must be between 1 and/, key: 'page' },
  { field: 'per_page', message: /^per_page must be between 1 and (\d+)$/, key: 'perPage', params: max },
  { field: 'action', message: /^(unknown action|action must be)/, key: 'action' },
  { field: 'body', message: /^expected a JSON object$/, key: 'body' },
  // serde's own wording (api/src/extract.rs): the field is in the path, or in the message.
  { field: '*', message: /^must not contain NUL characters$/, key: 'nul' },
  { field: '*', message: /^missing field `([a-z_]+)`/, key: 'missing', params: (m) => ({ name: m[1] ?? '' }) },
];

/** `recurrence.interval`, `alerts[0].before_minutes` → the field the person knows. */
export function fieldRoot(field: string): string {
  return field.split(/[.[]/)[0] ?? field;
}

/** The text for one server field error; never the server's own message. */
export function fieldErrorText(field: string, message: string): ErrorText {
  const root = fieldRoot(field);
  for (const rule of RULES) {
    if (rule.field !== '*' && rule.field !== root) continue;
    const m = message.match(rule.message);
    if (!m) continue;
    const params = { ...rule.params?.(m) };
    const named = typeof params.name === 'string' ? params.name : root;
    return { key: `errors:field.${rule.key}`, params: { ...params, field: named } };
  }
  return { key: KNOWN_FIELDS.has(root) ? 'errors:field.fallback' : 'errors:field.unknownField', params: { field: root } };
}

/** The text for an error by its code (with the wait for RATE_LIMITED); anything else reads "something went wrong". */
export function apiErrorText(e: unknown): ErrorText {
  if (!isApiError(e)) return { key: 'errors:code.unknown' };
  if (e.code === 'RATE_LIMITED' && e.retryAfter !== undefined && e.retryAfter > 0 && e.retryAfter <= 120) {
    return { key: 'errors:code.retryAfter', params: { seconds: e.retryAfter } };
  }
  return { key: KNOWN_CODES.has(e.code) ? `errors:code.${e.code}` : 'errors:code.unknown' };
}

/** Renders an ErrorText: a `field` parameter becomes the field's translated name. */
export function errorMessage(t: TFunction, text: ErrorText): string {
  const params: Record<string, string | number> = { ...text.params };
  if (typeof params.field === 'string') {
    params.field = KNOWN_FIELDS.has(params.field) ? t(`errors:fieldName.${params.field}`) : t('errors:fieldName.input');
  }
  return t(text.key, params);
}

/** Every server field error, translated, keyed by the server's field root. */
export function fieldErrorMessages(t: TFunction, fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(fields)) {
    const root = fieldRoot(field);
    out[root] ??= errorMessage(t, fieldErrorText(field, message));
  }
  return out;
}

/**
 * One line for a toast or an alert: a validation failure shows its first field's text, any
 * other error its code's text.
 */
export function errorSummary(t: TFunction, e: unknown): string {
  if (isApiError(e, 'VALIDATION_FAILED') && e.fields) {
    const first = Object.entries(e.fields)[0];
    if (first) return errorMessage(t, fieldErrorText(first[0], first[1]));
  }
  return errorMessage(t, apiErrorText(e));
}
