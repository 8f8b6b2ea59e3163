/**
 * Every error the server can send, in the reader's language (decisions.md: no raw code and
 * no server English on a Japanese page). The server's `error.code` picks a text; a
 * VALIDATION_FAILED's `details` [{field, code, params}] pick a text by field and code (the
 * app's own where it has one, else the code's generic text naming the field), never by the
 * server's message; an unknown code, or `fields` without `details`, reads "check <field>".
 * Texts live in the `errors` namespace; a caller loads it with its own
 * (`useTranslation(['reminders', 'errors'])`) and passes its `t`.
 */
import type { TFunction } from 'i18next';
import { isApiError, type FieldDetail } from './api';

export interface ErrorText {
  /** an i18n key with its namespace (`errors:…`) */
  key: string;
  /** a more precise key tried first (a generic field text with its numbers); `key` when it has none */
  variant?: string;
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
  'TRIGGER_LIMIT',
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
  'name',
  'colour',
  'list_id',
  'q',
  'assignees',
  'rotate',
  'break_through',
  'quiet_hours',
  'daily_brief',
] as const;

const KNOWN_FIELDS: ReadonlySet<string> = new Set(FIELD_NAMES);

type FieldCode = FieldDetail['code'];

/** The closed set of field codes the server publishes (openapi.json, `FieldCode`). */
export const FIELD_CODES = [
  'required',
  'too_long',
  'too_short',
  'invalid_format',
  'out_of_range',
  'not_in_future',
  'too_far',
  'unknown_zone',
  'too_many',
  'invalid_choice',
  'invalid_characters',
  'conflict',
  'not_applicable',
] as const satisfies readonly FieldCode[];

const KNOWN_FIELD_CODES: ReadonlySet<string> = new Set(FIELD_CODES);

/**
 * The app's own texts for a (field, code), by the field's whole path; `field.code.max` first
 * where one code means two things told apart by its max (common/src: recurrence/rules.rs,
 * alarms.rs). Anything else reads the code's generic text naming the field.
 */
const SPECIFIC: Readonly<Record<string, string>> = {
  'title.required': 'titleRequired',
  'title.too_long': 'titleTooLong',
  'description.too_long': 'descriptionTooLong',
  'send_at.not_in_future': 'sendAtPast',
  'send_at.too_far': 'sendAtTooFar',
  'timezone.unknown_zone': 'timezoneUnknown',
  'send_to.too_many': 'sendToTooMany',
  'metadata.too_long': 'metadataTooLarge',
  'recurrence.required': 'customNoDays',
  'recurrence.invalid_choice': 'customDuplicateDay',
  'recurrence.out_of_range': 'intervalRange',
  'recurrence.out_of_range.24': 'hourlyInterval',
  'recurrence.out_of_range.31': 'monthDay',
  'recurrence.out_of_range.5': 'monthWeek',
  'recurrence.out_of_range.1000': 'countRange',
  'recurrence.too_many': 'tooManySkips',
  'alerts.too_many': 'alertsTooMany',
  'alerts.out_of_range': 'alertBeforeRange',
  'repeat_until_done.out_of_range.60': 'repeatEvery',
  'repeat_until_done.out_of_range.20': 'repeatTimes',
  'repeat_until_done.escalate.out_of_range': 'escalateAfter',
  'repeat_until_done.escalate.invalid_choice': 'escalateMember',
  'repeat_until_done.escalate.required': 'escalateMemberMissing',
  'snooze_until.conflict': 'snoozeBoth',
  'snooze_until.not_in_future': 'snoozePast',
  'snooze_until.too_far': 'snoozeTooFar',
  'snooze_minutes.invalid_choice': 'snoozePreset',
  'default_snooze_minutes.invalid_choice': 'snoozePreset',
  'email_fallback_minutes.invalid_choice': 'emailFallback',
  'language.invalid_choice': 'language',
  'morning_time.invalid_format': 'dayTime',
  'evening_time.invalid_format': 'dayTime',
  'count.out_of_range': 'previewCount',
  'limit.out_of_range': 'pageLimit',
  'offset.out_of_range': 'pageOffset',
  'page.out_of_range': 'page',
  'per_page.out_of_range': 'perPage',
  'confirm.invalid_choice': 'confirmEmail',
  'email.invalid_choice': 'devLoginOnly',
  'subscription.keys.p256dh.invalid_format': 'pushKeys',
  'subscription.keys.auth.invalid_format': 'pushKeys',
  'device_info.invalid_format': 'deviceInfo',
  'action.invalid_choice': 'action',
  'body.invalid_format': 'body',
  'assignees.invalid_choice': 'assigneesNotMember',
  'rotate.too_short': 'rotateTooShort',
  'quiet_hours.start.invalid_format': 'quietStart',
  'quiet_hours.end.invalid_format': 'quietEnd',
  'quiet_hours.end.conflict': 'quietSame',
  'daily_brief.time.invalid_format': 'briefTime',
  'daily_brief.via.invalid_choice': 'briefVia',
};

/** `recurrence.interval`, `alerts[0].before_minutes` → the field the person knows. */
export function fieldRoot(field: string): string {
  return field.split(/[.[]/)[0] ?? field;
}

/** "Check <field>" (or "check your entries" for a field the app does not name). */
function checkField(root: string): ErrorText {
  return { key: KNOWN_FIELDS.has(root) ? 'errors:field.fallback' : 'errors:field.unknownField', params: { field: root } };
}

/** The text for one failing field by its code and numbers; never the server's own message. */
export function fieldErrorText({ field, code, params }: FieldDetail): ErrorText {
  const root = fieldRoot(field);
  if (!KNOWN_FIELD_CODES.has(code)) return checkField(root);
  const n: Record<string, number> = { ...params };
  const specific = SPECIFIC[`${field}.${code}.${n.max}`] ?? SPECIFIC[`${field}.${code}`];
  // A code of numbers (`too_long`…) without them reads the generic text, not a text with a hole.
  if (specific && (params || !/too_|range/.test(code))) {
    const out: Record<string, string | number> = { ...n, field: root };
    if (specific === 'alertBeforeRange' && n.max !== undefined) out.days = Math.round(n.max / 1440);
    return { key: `errors:field.${specific}`, params: out };
  }
  // The generic text by the numbers it has: min and max, one of them, or years / days.
  const variant = n.min !== undefined && n.max !== undefined ? 'range' : ['max', 'min', 'years', 'days'].find((k) => n[k] !== undefined);
  const base = `errors:fieldCode.${code}`;
  return { key: base, ...(variant ? { variant: `${base}_${variant}` } : {}), params: { ...n, field: root } };
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
  return text.variant ? t([text.variant, text.key], params) : t(text.key, params);
}

/**
 * Every failing field, translated, keyed by the field's root (the first text of a field wins).
 * From the server's `details`; without them (an older server, an error kept offline) each of
 * `fields` reads "check <field>".
 */
export function fieldErrorMessages(t: TFunction, e: { fields?: Record<string, string>; details?: FieldDetail[] }): Record<string, string> {
  const texts: [string, ErrorText][] = e.details
    ? e.details.map((d) => [fieldRoot(d.field), fieldErrorText(d)])
    : Object.keys(e.fields ?? {}).map((f) => [fieldRoot(f), checkField(fieldRoot(f))]);
  const out: Record<string, string> = {};
  for (const [root, text] of texts) out[root] ??= errorMessage(t, text);
  return out;
}

/**
 * Every failing field, translated, keyed by its whole path (`quiet_hours.end`), for a form that
 * shows a nested field's error at that field; the first text of a path wins.
 */
export function fieldErrorsByPath(t: TFunction, e: { fields?: Record<string, string>; details?: FieldDetail[] }): Record<string, string> {
  const texts: [string, ErrorText][] = e.details
    ? e.details.map((d) => [d.field, fieldErrorText(d)])
    : Object.keys(e.fields ?? {}).map((f) => [f, checkField(fieldRoot(f))]);
  const out: Record<string, string> = {};
  for (const [path, text] of texts) out[path] ??= errorMessage(t, text);
  return out;
}

/**
 * One line for a toast or an alert: a validation failure shows its first field's text, any
 * other error its code's text.
 */
export function errorSummary(t: TFunction, e: unknown): string {
  if (isApiError(e, 'VALIDATION_FAILED')) {
    const first = Object.values(fieldErrorMessages(t, e))[0];
    if (first) return first;
  }
  return errorMessage(t, apiErrorText(e));
}
