import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from './api';

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

describe('api client', () => {
  it('unwraps the success envelope and sends same-origin credentials', async () => {
    const fetch = vi.fn(async () => jsonResponse(200, { success: true, data: { user: { id: 'u' }, is_admin: false } }));
    const api = createApiClient({ fetch });
    const s = await api.auth.session();
    expect(s.is_admin).toBe(false);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/session');
    expect(init.credentials).toBe('same-origin');
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('sends JSON bodies and query strings', async () => {
    const fetch = vi.fn(async () => jsonResponse(202, { success: true, data: { expires_in: 1200, resend_after: 60 } }));
    const api = createApiClient({ fetch });
    expect(await api.auth.requestOtp('a@b.c', 'ja')).toEqual({ expires_in: 1200, resend_after: 60 });
    let [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({ email: 'a@b.c', lang: 'ja' });
    await api.reminders.handle({ reminder_id: 'r', log_id: 'l', action: 'complete' });
    [url, init] = fetch.mock.calls[1] as unknown as [string, RequestInit];
    expect(url).toBe('/api/reminders?action=handle');
    await api.reminders.preview({ title: 't', send_at: '2030-01-01T09:00:00+09:00' }, 5);
    expect(fetch.mock.calls[2]?.[0 as never]).toBe('/api/reminders/preview?count=5');
  });

  it("the auth helper refuses a missing or malformed address before any request, with the spec's messages", async () => {
    const fetch = vi.fn(async () => jsonResponse(202, { success: true, data: { expires_in: 1200, resend_after: 60 } }));
    const api = createApiClient({ fetch });
    for (const call of [(e: string) => api.auth.requestOtp(e, 'ja'), (e: string) => api.auth.devLogin(e)]) {
      await expect(call('')).rejects.toMatchObject({ name: 'ApiError', code: 'EMAIL_REQUIRED', message: 'Email address is required' });
      await expect(call('   ')).rejects.toMatchObject({ code: 'EMAIL_REQUIRED', message: 'Email address is required' });
      for (const bad of ['taro', 'taro@', 'taro@example', 'taro @example.com']) {
        await expect(call(bad)).rejects.toMatchObject({ code: 'EMAIL_FORMAT', message: 'Invalid email format' });
      }
    }
    expect(fetch).not.toHaveBeenCalled();
    // a good one goes, trimmed
    await api.auth.requestOtp(' taro@example.com ', 'en');
    expect(JSON.parse((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as string)).toEqual({ email: 'taro@example.com', lang: 'en' });
  });

  it('lets a caller see the answer before it is read (a page of reminders and its X-Total-Count)', async () => {
    const api = createApiClient({ fetch: async () => jsonResponse(200, { success: true, data: [] }, { 'X-Total-Count': '120' }) });
    let total: string | null = null;
    const list = await api.request<unknown[]>('GET', '/api/reminders', {
      query: { status: 'archived', limit: 50, offset: 0 },
      onResponse: (res) => {
        total = res.headers.get('X-Total-Count');
      },
    });
    expect(list).toEqual([]);
    expect(total).toBe('120');
  });

  it('returns undefined for 204', async () => {
    const api = createApiClient({ fetch: async () => new Response(null, { status: 204 }) });
    await expect(api.auth.logout()).resolves.toBeUndefined();
  });

  it('maps error envelopes to ApiError with code, fields and retry_after', async () => {
    const api = createApiClient({
      fetch: async () =>
        jsonResponse(400, {
          success: false,
          error: {
            code: 'VALIDATION_FAILED',
            message: 'bad',
            fields: { send_at: 'must be in the future' },
            details: [{ field: 'send_at', code: 'not_in_future' }],
          },
        }),
    });
    const e = await api.reminders.create({ title: 'x', send_at: 'y' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'bad',
      fields: { send_at: 'must be in the future' },
      details: [{ field: 'send_at', code: 'not_in_future' }],
    });

    const log = vi.fn();
    const limited = createApiClient({
      log,
      fetch: async () =>
        jsonResponse(429, { success: false, error: { code: 'RATE_LIMITED', message: 'slow', retry_after: 42 } }, { 'Retry-After': '42' }),
    });
    const e2 = await limited.auth.requestOtp('a@b.c').catch((x: unknown) => x);
    expect(e2).toMatchObject({ code: 'RATE_LIMITED', retryAfter: 42 });
    expect(log).toHaveBeenCalled();
  });

  it("falls back to 'HTTP status: text' when the body has no message", async () => {
    const api = createApiClient({
      log: () => {},
      fetch: async () => new Response('oops', { status: 502, statusText: 'Bad Gateway' }),
    });
    await expect(api.reminders.list()).rejects.toMatchObject({ message: 'HTTP 502: Bad Gateway', code: 'HTTP_502', status: 502 });
  });

  it('logs out on 401 AUTHENTICATION_REQUIRED only', async () => {
    const onAuthRequired = vi.fn();
    const api = createApiClient({
      onAuthRequired,
      fetch: async () =>
        jsonResponse(401, { success: false, error: { code: 'UNAUTHORIZED', message: 'no' }, error_type: 'AUTHENTICATION_REQUIRED' }),
    });
    await expect(api.reminders.list()).rejects.toMatchObject({ status: 401, errorType: 'AUTHENTICATION_REQUIRED' });
    expect(onAuthRequired).toHaveBeenCalledTimes(1);

    const other = createApiClient({ onAuthRequired, fetch: async () => jsonResponse(400, { success: false, error: { code: 'OTP_INVALID', message: 'x' } }) });
    await expect(other.auth.verify('a@b.c', '000000')).rejects.toMatchObject({ code: 'OTP_INVALID' });
    expect(onAuthRequired).toHaveBeenCalledTimes(1);
  });

  it("times out after 10 s with TIMEOUT 'Request timeout'", async () => {
    vi.useFakeTimers();
    try {
      const fetch = (_: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
      const api = createApiClient({ fetch: fetch as typeof globalThis.fetch });
      let settled = false;
      const p = api.reminders.list().catch((e: unknown) => e);
      void p.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(9_999);
      expect(settled, 'still waiting 1 ms before 10 s').toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await p).toMatchObject({ code: 'TIMEOUT', message: 'Request timeout' });
      expect(settled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("maps a network failure to ERR_NETWORK 'Network error'", async () => {
    const api = createApiClient({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(api.settings.get()).rejects.toMatchObject({ code: 'ERR_NETWORK', message: 'Network error', status: 0 });
  });

  it('HEAD probe resolves on 200 with no body', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 200 }));
    const api = createApiClient({ fetch });
    await expect(api.health.probe()).resolves.toBeUndefined();
    expect((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].method).toBe('HEAD');
  });
});
