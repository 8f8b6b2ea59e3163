/**
 * What the error reporter may send (product spec §8 "Error reporting"): chunk-load and network
 * errors are dropped; cookies and the authorization header are stripped; an email address is
 * masked down to its domain. Plain functions over the event's JSON shape, so they are tested
 * without the reporter and run on every event, breadcrumb and transaction it sends.
 */

const EMAIL = /[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g;

/** `alice@example.com` → `***@example.com`, anywhere in a text. */
export function maskEmails(text: string): string {
  return text.replace(EMAIL, (_, domain: string) => `***@${domain}`);
}

// Messages browsers give a dynamic import whose file is gone (a new deploy) or unreachable.
const CHUNK_LOAD = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Loading (CSS )?chunk [\w-]+ failed/i,
  /ChunkLoadError/i,
  /Unable to preload CSS/i,
];
// Messages of a request that never got an answer: the person is offline or the server is away.
const NETWORK = [
  /^Failed to fetch$/i,
  /NetworkError when attempting to fetch resource/i,
  /^Load failed$/i,
  /^Network request failed$/i,
  /^Network error$/i,
  /ERR_NETWORK/,
  /The network connection was lost/i,
];

interface ExceptionValue {
  type?: string;
  value?: string;
}

/** True for an event the spec says not to report. */
export function isDroppedError(values: ExceptionValue[], message?: string): boolean {
  const texts = [message ?? '', ...values.flatMap((v) => [v.value ?? '', `${v.type ?? ''}: ${v.value ?? ''}`])];
  if (values.some((v) => v.type === 'ChunkLoadError')) return true;
  return texts.some((t) => CHUNK_LOAD.some((re) => re.test(t)) || NETWORK.some((re) => re.test(t)));
}

const SECRET_HEADERS = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization']);

/** A copy of `headers` without cookies or credentials. */
export function stripHeaders(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !SECRET_HEADERS.has(k.toLowerCase())));
}

/** Masks every email address in every string of a JSON-like value (in place where it can). */
export function maskDeep<T>(value: T, depth = 0): T {
  if (depth > 12) return value;
  if (typeof value === 'string') return maskEmails(value) as T;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, depth + 1)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = maskDeep(v, depth + 1);
    return out as T;
  }
  return value;
}

/** The parts of a reporter event these rules look at (a structural subset of Sentry's). */
export interface ReportEvent {
  message?: string;
  exception?: { values?: ExceptionValue[] };
  request?: { headers?: Record<string, string>; cookies?: unknown; [k: string]: unknown };
  user?: { email?: string; ip_address?: string | null; [k: string]: unknown };
  [k: string]: unknown;
}

/** The event as it may leave the browser, or null when it must not be sent. */
export function scrubEvent<E extends ReportEvent>(event: E): E | null {
  if (isDroppedError(event.exception?.values ?? [], event.message)) return null;
  const out = maskDeep(event);
  if (out.request) {
    delete out.request.cookies;
    out.request.headers = stripHeaders(out.request.headers);
  }
  if (out.user) delete out.user.ip_address;
  return out;
}
