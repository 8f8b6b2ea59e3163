/**
 * The one typed API client (contract: docs/spec/api.md).
 *
 * - Envelope: `{success: true, data}` or `{success: false, error: {code, message, fields?,
 *   details?, retry_after?}, error_type?}`; a VALIDATION_FAILED's `details` name each failing
 *   field's code from the closed set `FieldCode` (lib/apiErrors translates them).
 * - The session rides in an HttpOnly cookie: every call uses `credentials: 'same-origin'` and
 *   no token is ever stored by the web app.
 * - 401 with error_type AUTHENTICATION_REQUIRED calls the registered handler (logout).
 * - 10 s default timeout -> ApiError code TIMEOUT 'Request timeout';
 *   network failure -> ApiError code ERR_NETWORK 'Network error'.
 * - No React or i18next here: the service worker sends its calls with this client too.
 */
import type { components } from './api-schema';
import { emailProblem } from './email';
import type {
  AdminStats,
  AdminUsersPage,
  DeliveryLog,
  Device,
  HandleInput,
  HealthDetails,
  Occurrences,
  OtpRequestAnswer,
  PushSubscriptionInput,
  Reminder,
  ReminderInput,
  ReminderStatusFilter,
  SendNowAnswer,
  ServerStatus,
  SessionAnswer,
  Settings,
  Site,
  VapidPublicKey,
  VerifyAnswer,
} from './types';

export const DEFAULT_TIMEOUT_MS = 10_000;

// The service worker's pure logic builds these two calls as data ({url, body}) and sends
// them with this client; the paths live here, once.
/** Complete/Snooze (`HandleInput`); a push's action_token authorizes it without the session. */
export const HANDLE_PATH = '/api/reminders?action=handle';
/** A notification was shown on this device (`AckInput`). */
export const ACK_PATH = '/api/notifications?action=ack';

/** One failing field of a VALIDATION_FAILED: `{field, code, params?}` (api.md, Conventions). */
export type FieldDetail = components['schemas']['FieldDetail'];

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields?: Record<string, string>;
  /** set only when the envelope has it (no own property otherwise) */
  declare readonly details?: FieldDetail[];
  readonly retryAfter?: number;
  readonly errorType?: string;
  readonly data?: unknown;

  constructor(
    message: string,
    opts: {
      status: number;
      code: string;
      fields?: Record<string, string>;
      details?: FieldDetail[];
      retryAfter?: number;
      errorType?: string;
      data?: unknown;
    },
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = opts.status;
    this.code = opts.code;
    if (opts.fields) this.fields = opts.fields;
    if (opts.details) this.details = opts.details;
    if (opts.retryAfter !== undefined) this.retryAfter = opts.retryAfter;
    if (opts.errorType) this.errorType = opts.errorType;
    if (opts.data !== undefined) this.data = opts.data;
  }
}

export function isApiError(e: unknown, code?: string): e is ApiError {
  return e instanceof ApiError && (code === undefined || e.code === code);
}

/**
 * The auth helper's own check of a sign-in address (product spec section 5), before any request:
 * missing -> ApiError EMAIL_REQUIRED 'Email address is required'; not in form -> EMAIL_FORMAT
 * 'Invalid email format'. Returns the trimmed address.
 */
function signInEmail(email: string): string {
  const problem = emailProblem(email);
  if (problem === 'required') throw new ApiError('Email address is required', { status: 0, code: 'EMAIL_REQUIRED' });
  if (problem) throw new ApiError('Invalid email format', { status: 0, code: 'EMAIL_FORMAT' });
  return email.trim();
}

type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** sees the answer before it is read, for its headers (`X-Total-Count` of a page of reminders) */
  onResponse?: (res: Response) => void;
}

export interface ApiClientOptions {
  fetch?: typeof fetch;
  baseUrl?: string;
  timeoutMs?: number;
  onAuthRequired?: () => void;
  log?: (message: string, detail?: unknown) => void;
}

interface ErrorBody {
  success?: false;
  error?: { code?: string; message?: string; fields?: Record<string, string>; details?: FieldDetail[]; retry_after?: number };
  error_type?: string;
}

function buildUrl(base: string, path: string, query?: Query): string {
  let url = base + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    if (qs) url += (url.includes('?') ? '&' : '?') + qs;
  }
  return url;
}

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = options.baseUrl ?? '';
  const defaultTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const log = options.log ?? ((m: string, d?: unknown) => console.warn(m, d));
  let onAuthRequired = options.onAuthRequired;

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, opts.timeoutMs ?? defaultTimeout);
    const onOuterAbort = () => controller.abort();
    opts.signal?.addEventListener('abort', onOuterAbort);

    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }

    let res: Response;
    try {
      res = await doFetch(buildUrl(baseUrl, path, opts.query), {
        method,
        headers,
        body,
        credentials: 'same-origin',
        signal: controller.signal,
      });
    } catch (e) {
      if (timedOut) throw new ApiError('Request timeout', { status: 0, code: 'TIMEOUT' });
      if (opts.signal?.aborted) throw e;
      throw new ApiError('Network error', { status: 0, code: 'ERR_NETWORK', data: e });
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onOuterAbort);
    }
    opts.onResponse?.(res);

    if (res.status === 204 || method === 'HEAD') {
      if (res.ok) return undefined as T;
    }

    let parsed: unknown = undefined;
    const text = method === 'HEAD' ? '' : await res.text().catch(() => '');
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    const envelope = (parsed && typeof parsed === 'object' ? parsed : {}) as { success?: boolean; data?: unknown } & ErrorBody;

    if (!res.ok || envelope.success === false) {
      const err = envelope.error;
      const apiError = new ApiError(err?.message || `HTTP ${res.status}: ${res.statusText}`, {
        status: res.status,
        code: err?.code || `HTTP_${res.status}`,
        // the constructor keeps only the ones present
        fields: err?.fields,
        details: err?.details,
        ...(err?.retry_after !== undefined
          ? { retryAfter: err.retry_after }
          : res.headers.get('Retry-After')
            ? { retryAfter: Number(res.headers.get('Retry-After')) }
            : {}),
        ...(envelope.error_type ? { errorType: envelope.error_type } : {}),
        data: parsed,
      });
      if (res.status === 401 && envelope.error_type === 'AUTHENTICATION_REQUIRED') onAuthRequired?.();
      if (res.status === 429) log(`Rate limited: ${method} ${path}`, apiError);
      if (res.status >= 500) log(`Server error ${res.status}: ${method} ${path}`, apiError);
      throw apiError;
    }
    if ('success' in envelope && 'data' in envelope) return envelope.data as T;
    return parsed as T;
  }

  const get = <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts);
  const post = <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, { ...opts, body });
  const put = <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, { ...opts, body });
  const del = <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('DELETE', path, { ...opts, body });
  const id = encodeURIComponent;

  return {
    request,
    setAuthRequiredHandler(fn: (() => void) | undefined) {
      onAuthRequired = fn;
    },
    auth: {
      // These two check the address first (signInEmail): a missing or malformed one rejects unsent.
      requestOtp: async (email: string, lang?: 'ja' | 'en') => post<OtpRequestAnswer>('/api/auth/otp', { email: signInEmail(email), lang }),
      verify: (email: string, code: string) => post<VerifyAnswer>('/api/auth/verify', { email, code }),
      verifyLink: (token: string) => post<VerifyAnswer>('/api/auth/verify-link', { token }),
      session: () => get<SessionAnswer>('/api/auth/session'),
      logout: () => post<void>('/api/auth/logout'),
      devLogin: async (email: string) => post<VerifyAnswer>('/api/auth/dev-login', { email: signInEmail(email) }),
    },
    reminders: {
      list: (status: ReminderStatusFilter = 'active') => get<Reminder[]>('/api/reminders', { query: { status } }),
      get: (rid: string) => get<Reminder>(`/api/reminders/${id(rid)}`),
      create: (input: ReminderInput) => post<Reminder>('/api/reminders', input),
      update: (rid: string, input: Partial<ReminderInput>) => put<Reminder>(`/api/reminders/${id(rid)}`, input),
      remove: (rid: string) => del<void>(`/api/reminders/${id(rid)}`),
      sendNow: (rid: string) => post<SendNowAnswer>(`/api/reminders/${id(rid)}/send`),
      completeEarly: (rid: string) => post<Reminder>(`/api/reminders/${id(rid)}/complete`),
      handle: (input: HandleInput) => post<Reminder>(HANDLE_PATH, input),
      preview: (input: ReminderInput, count = 5) =>
        post<Occurrences>('/api/reminders/preview', input, { query: { count } }),
      occurrences: (rid: string, count = 5) =>
        get<Occurrences>(`/api/reminders/${id(rid)}/occurrences`, { query: { count } }),
      logs: (rid: string) => get<DeliveryLog[]>(`/api/reminders/${id(rid)}/logs`),
    },
    notifications: {
      vapidPublicKey: () => get<VapidPublicKey>('/api/notifications/vapid-public-key'),
      subscribe: (input: PushSubscriptionInput) =>
        post<void>('/api/notifications', input, { query: { action: 'subscribe' } }),
      unsubscribe: (endpoint: string) => post<void>('/api/notifications', { endpoint }, { query: { action: 'unsubscribe' } }),
      subscriptions: () => get<Device[]>('/api/notifications/subscriptions'),
      removeDevice: (deviceId: string) => del<void>(`/api/notifications/subscriptions/${id(deviceId)}`),
      test: () => post<void>('/api/notifications', undefined, { query: { action: 'test' } }),
    },
    settings: {
      get: () => get<Settings>('/api/settings'),
      update: (patch: Partial<Settings>) => put<Settings>('/api/settings', patch),
    },
    account: {
      remove: (confirmEmail: string) => del<void>('/api/account', { confirm: confirmEmail }),
      testEmail: () => post<void>('/api/test-email'),
    },
    admin: {
      stats: () => get<AdminStats>('/api/admin/stats'),
      users: (page = 1, perPage = 50) => get<AdminUsersPage>('/api/admin/users', { query: { page, per_page: perPage } }),
    },
    health: {
      /** HEAD /api/health: connectivity probe, 5 s timeout */
      probe: (timeoutMs = 5_000) => request<void>('HEAD', '/api/health', { timeoutMs }),
      details: () => get<HealthDetails>('/api/health'),
      status: () => get<ServerStatus>('/api/status'),
      /** the operator's details and whether error reporting is on */
      site: () => get<Site>('/api/site'),
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** The app-wide client. The auth store registers its logout as the 401 handler. */
export const api = createApiClient();
