/**
 * Settings → Notification channels (api.md "Channels"): the list says each channel's status
 * (failing in plain words); "Every ring" and "Fallback" save at once with only what changed;
 * a test says when it can be tried again after a 429; rename and remove (after asking); adding
 * an ntfy topic posts its URL and token, a webhook's secret is shown once, an unsafe URL is
 * refused at the URL field, Telegram and LINE say when the server has not enabled them, the
 * limit shows at the form; the daily brief offers the active channels.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { Settings, User } from '../../lib/types';
import type { Channel, CreatedChannel } from '../../shared/channels';
import { json, mockFetch, ok, preloadApp, renderApp, type Handler } from '../../test/renderApp';
import { tr } from '../../test/texts';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const SETTINGS: Settings = {
  timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 10, speak_titles: false, hide_notification_content: false,
  email_fallback_minutes: 5, morning_time: '08:00', evening_time: '18:00', quiet_hours: null, daily_brief: null,
};
const PHONE: Channel = { id: 'ch-1', kind: 'ntfy', label: 'ntfy.sh/hibiki-phone', status: 'active', use: { rings: false, fallback: true }, created_at: '2025-03-01T00:00:00Z' };
const HOOK: Channel = { id: 'ch-2', kind: 'webhook', label: 'Home server', status: 'failing', use: { rings: true, fallback: false }, created_at: '2025-03-02T00:00:00Z' };
const TG: Channel = { id: 'ch-3', kind: 'telegram', label: 'Telegram', status: 'pending', use: { rings: true, fallback: false }, created_at: '2025-03-03T00:00:00Z' };
const prefix = (lang: Lang) => (lang === 'en' ? '/en' : '');

interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** The server: channels kept as it keeps them; `routes` answer in its place. */
function server(channels: Channel[], routes: Record<string, Handler> = {}, settings: Settings = SETTINGS) {
  const list = [...channels];
  const calls: Call[] = [];
  const record = (method: string, handler: Handler): Handler => (url, init) => {
    calls.push({ method, path: url.split('?')[0]!, body: init.body ? JSON.parse(String(init.body)) : undefined });
    return handler(url, init);
  };
  mockFetch({
    'GET /api/settings': () => ok(settings),
    'PUT /api/settings': record('PUT', (_u, init) => ok({ ...settings, ...(JSON.parse(String(init.body)) as Partial<Settings>) })),
    'GET /api/notifications/subscriptions': () => ok([]),
    'GET /api/auth/sessions': () => ok([]),
    'GET /api/channels': () => ok(list),
    'POST /api/channels': record(
      'POST',
      routes['POST /api/channels'] ??
        ((_u, init) => {
          const body = JSON.parse(String(init.body)) as { kind: Channel['kind']; url?: string };
          const made: CreatedChannel = {
            id: `ch-new-${list.length}`,
            kind: body.kind,
            label: `${body.kind} ${body.url ?? ''}`.trim(),
            status: 'active',
            use: { rings: true, fallback: false },
            created_at: '2025-04-01T00:00:00Z',
            ...(body.kind === 'webhook' ? { secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=' } : {}),
          };
          const { secret: _secret, ...channel } = made;
          list.push(channel);
          return ok(made, 201);
        }),
    ),
    ...Object.fromEntries(
      list.flatMap((c) => {
        const path = `/api/channels/${c.id}`;
        return [
          [
            `PUT ${path}`,
            record('PUT', routes[`PUT ${path}`] ?? ((_u, init) => {
              const patch = JSON.parse(String(init.body)) as { label?: string; use?: Partial<Channel['use']> };
              const i = list.findIndex((x) => x.id === c.id);
              list[i] = { ...list[i]!, ...(patch.label ? { label: patch.label } : {}), use: { ...list[i]!.use, ...patch.use } };
              return ok(list[i]);
            })),
          ],
          [
            `DELETE ${path}`,
            record('DELETE', () => {
              list.splice(list.findIndex((x) => x.id === c.id), 1);
              return json(204, null);
            }),
          ],
          [`POST ${path}/test`, record('POST', routes[`POST ${path}/test`] ?? (() => json(202, { success: true, data: null })))],
        ];
      }),
    ),
  });
  return { calls, list };
}

async function open(lang: Lang) {
  renderApp(`${prefix(lang)}/settings`);
  return screen.findByRole('region', { name: tr(lang, 'settings:channels.title') });
}

const toasts = () => getToasts().map((t) => t.message);

async function openAdd(lang: Lang, section: HTMLElement) {
  fireEvent.click(within(section).getByRole('button', { name: tr(lang, 'settings:channels.add.open') }));
  return within(section).getByRole('form', { name: tr(lang, 'settings:channels.add.open') });
}

beforeAll(preloadApp, 120_000);
beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('Settings: the list of channels', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: each channel with its name, kind and status; a failing one says so in plain words`, async () => {
      server([PHONE, HOOK, TG]);
      const section = await open(lang);
      const phone = await within(section).findByRole('group', { name: PHONE.label });
      expect(within(phone).getByText(tr(lang, 'settings:channels.kind.ntfy'))).toBeVisible();
      expect(within(phone).getByText(tr(lang, 'settings:channels.status.active'))).toBeVisible();
      expect(within(phone).queryByText(tr(lang, 'settings:channels.failingHint'))).toBeNull();

      const hook = within(section).getByRole('group', { name: HOOK.label });
      expect(within(hook).getByText(tr(lang, 'settings:channels.kind.webhook'))).toBeVisible();
      expect(within(hook).getByText(tr(lang, 'settings:channels.status.failing'))).toBeVisible();
      expect(within(hook).getByText(tr(lang, 'settings:channels.failingHint'))).toBeVisible();
      expect(hook).toHaveAccessibleDescription(tr(lang, 'settings:channels.failingHint'));
      expect(within(hook).getByRole('switch', { name: tr(lang, 'settings:channels.rings') })).toBeChecked();
      expect(within(hook).getByRole('switch', { name: tr(lang, 'settings:channels.fallback') })).not.toBeChecked();

      const tg = within(section).getByRole('group', { name: TG.label });
      expect(within(tg).getByText(tr(lang, 'settings:channels.status.pending'))).toBeVisible();
      expect(within(tg).getByText(tr(lang, 'settings:channels.pendingHint'))).toBeVisible();
      // a channel not linked yet has nothing to test
      expect(within(tg).getByRole('button', { name: tr(lang, 'settings:channels.testNamed', { name: TG.label }) })).toBeDisabled();
    });
  }

  it('en: no channels says so', async () => {
    server([]);
    const section = await open('en');
    expect(await within(section).findByText(tr('en', 'settings:channels.none'))).toBeVisible();
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: "Every ring" and "Fallback" are saved at once, each with only what changed`, async () => {
      const { calls } = server([PHONE, HOOK]);
      const section = await open(lang);
      const phone = await within(section).findByRole('group', { name: PHONE.label });
      const rings = within(phone).getByRole('switch', { name: tr(lang, 'settings:channels.rings') });
      expect(rings).not.toBeChecked();
      fireEvent.click(rings);
      await waitFor(() => expect(calls).toHaveLength(1));
      expect(calls[0]).toEqual({ method: 'PUT', path: '/api/channels/ch-1', body: { use: { rings: true } } });
      await waitFor(() => expect(rings).toBeChecked());

      const fallback = within(phone).getByRole('switch', { name: tr(lang, 'settings:channels.fallback') });
      expect(fallback).toBeChecked();
      fireEvent.click(fallback);
      await waitFor(() => expect(calls).toHaveLength(2));
      expect(calls[1]).toEqual({ method: 'PUT', path: '/api/channels/ch-1', body: { use: { fallback: false } } });
      await waitFor(() => expect(fallback).not.toBeChecked());
      expect(rings).toBeChecked();
    });
  }

  it('en: a refused change goes back and says so', async () => {
    server([PHONE], { 'PUT /api/channels/ch-1': () => json(500, { success: false, error: { code: 'INTERNAL_ERROR', message: 'boom' } }) });
    const section = await open('en');
    const phone = await within(section).findByRole('group', { name: PHONE.label });
    const rings = within(phone).getByRole('switch', { name: tr('en', 'settings:channels.rings') });
    fireEvent.click(rings);
    await waitFor(() => expect(toasts()).toContain(tr('en', 'errors:code.INTERNAL_ERROR')));
    expect(rings).not.toBeChecked();
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: "Send test" says it was sent; a second within the minute (429) says when it can be tried again`, async () => {
      let tries = 0;
      const { calls } = server([PHONE], {
        'POST /api/channels/ch-1/test': () =>
          ++tries === 1
            ? json(202, { success: true, data: null })
            : json(429, { success: false, error: { code: 'RATE_LIMITED', message: 'Too many', retry_after: 42 } }),
      });
      const section = await open(lang);
      const phone = await within(section).findByRole('group', { name: PHONE.label });
      const test = within(phone).getByRole('button', { name: tr(lang, 'settings:channels.testNamed', { name: PHONE.label }) });
      fireEvent.click(test);
      await waitFor(() => expect(toasts()).toContain(tr(lang, 'settings:channels.testSent', { name: PHONE.label })));
      expect(calls[0]).toMatchObject({ method: 'POST', path: '/api/channels/ch-1/test' });

      await waitFor(() => expect(test).toBeEnabled());
      fireEvent.click(test);
      await waitFor(() => expect(toasts()).toContain(tr(lang, 'settings:channels.testWait', { seconds: 42 })));
    });
  }

  it('en: a 429 without a wait says to try again in a minute', async () => {
    server([PHONE], { 'POST /api/channels/ch-1/test': () => json(429, { success: false, error: { code: 'RATE_LIMITED', message: 'Too many' } }) });
    const section = await open('en');
    const phone = await within(section).findByRole('group', { name: PHONE.label });
    fireEvent.click(within(phone).getByRole('button', { name: tr('en', 'settings:channels.testNamed', { name: PHONE.label }) }));
    await waitFor(() => expect(toasts()).toContain(tr('en', 'settings:channels.testWaitMinute')));
  });

  it('ja: renamed in a small dialog: PUT {label}, the new name shows', async () => {
    const { calls } = server([PHONE]);
    const section = await open('ja');
    const phone = await within(section).findByRole('group', { name: PHONE.label });
    fireEvent.click(within(phone).getByRole('button', { name: tr('ja', 'settings:channels.renameNamed', { name: PHONE.label }) }));
    const dialog = await screen.findByRole('dialog', { name: tr('ja', 'settings:channels.renameTitle') });
    const name = within(dialog).getByLabelText(tr('ja', 'settings:channels.name'));
    expect(name).toHaveValue(PHONE.label);
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: tr('ja', 'settings:channels.save') }));
    expect(await within(dialog).findByText(tr('ja', 'settings:channels.nameRequired'))).toBeVisible();
    expect(calls).toHaveLength(0);

    fireEvent.change(name, { target: { value: ' スマホ ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: tr('ja', 'settings:channels.save') }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({ method: 'PUT', path: '/api/channels/ch-1', body: { label: 'スマホ' } });
    expect(await within(section).findByRole('group', { name: 'スマホ' })).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('en: removed only after confirming', async () => {
    const { calls } = server([PHONE, HOOK]);
    const section = await open('en');
    const hook = await within(section).findByRole('group', { name: HOOK.label });
    fireEvent.click(within(hook).getByRole('button', { name: tr('en', 'settings:channels.removeNamed', { name: HOOK.label }) }));
    let dialog = await screen.findByRole('dialog', { name: tr('en', 'settings:channels.removeTitle', { name: HOOK.label }) });
    fireEvent.click(within(dialog).getByRole('button', { name: tr('en', 'settings:channels.cancel') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toHaveLength(0);

    fireEvent.click(within(hook).getByRole('button', { name: tr('en', 'settings:channels.removeNamed', { name: HOOK.label }) }));
    dialog = await screen.findByRole('dialog', { name: tr('en', 'settings:channels.removeTitle', { name: HOOK.label }) });
    fireEvent.click(within(dialog).getByRole('button', { name: tr('en', 'settings:channels.remove') }));
    await waitFor(() => expect(calls).toEqual([{ method: 'DELETE', path: '/api/channels/ch-2', body: undefined }]));
    await waitFor(() => expect(within(section).queryByRole('group', { name: HOOK.label })).toBeNull());
    expect(within(section).getByRole('group', { name: PHONE.label })).toBeVisible();
    expect(toasts()).toContain(tr('en', 'settings:channels.removed', { name: HOOK.label }));
  });
});

describe('Settings: adding a channel', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: ntfy (the default) shows its three steps and posts {kind, url, token}; the new channel is listed`, async () => {
      const { calls } = server([]);
      const section = await open(lang);
      const form = await openAdd(lang, section);
      expect(within(form).getByRole('radio', { name: new RegExp(tr(lang, 'settings:channels.kind.ntfy')) })).toBeChecked();
      for (const step of ['ntfyStep1', 'ntfyStep2', 'ntfyStep3']) expect(within(form).getByText(tr(lang, `settings:channels.add.${step}`))).toBeVisible();

      const url = within(form).getByLabelText(tr(lang, 'settings:channels.add.ntfyUrl'));
      fireEvent.change(url, { target: { value: ' https://ntfy.sh/hibiki-7kq2m9x4 ' } });
      fireEvent.change(within(form).getByLabelText(tr(lang, 'settings:channels.add.token')), { target: { value: 'tk_abc123' } });
      fireEvent.click(within(form).getByRole('button', { name: tr(lang, 'settings:channels.add.submit') }));
      await waitFor(() => expect(calls).toHaveLength(1));
      expect(calls[0]).toEqual({ method: 'POST', path: '/api/channels', body: { kind: 'ntfy', url: 'https://ntfy.sh/hibiki-7kq2m9x4', token: 'tk_abc123' } });
      expect(await within(section).findByRole('group', { name: 'ntfy https://ntfy.sh/hibiki-7kq2m9x4' })).toBeVisible();
      // the form closes and focus goes back to its button
      await waitFor(() => expect(within(section).queryByRole('form')).toBeNull());
      expect(within(section).getByRole('button', { name: tr(lang, 'settings:channels.add.open') })).toHaveFocus();
      expect(toasts()).toContain(tr(lang, 'settings:channels.add.added', { name: 'ntfy https://ntfy.sh/hibiki-7kq2m9x4' }));
    });
  }

  it('en: ntfy without a token posts no token; a URL without https:// is refused before sending', async () => {
    const { calls } = server([]);
    const section = await open('en');
    const form = await openAdd('en', section);
    const url = within(form).getByLabelText(tr('en', 'settings:channels.add.ntfyUrl'));
    fireEvent.click(within(form).getByRole('button', { name: tr('en', 'settings:channels.add.submit') }));
    expect(await within(form).findByText(tr('en', 'settings:channels.errors.urlRequired'))).toBeVisible();
    fireEvent.change(url, { target: { value: 'ntfy.sh/mytopic' } });
    fireEvent.click(within(form).getByRole('button', { name: tr('en', 'settings:channels.add.submit') }));
    expect(await within(form).findByText(tr('en', 'settings:channels.errors.ntfyUrl'))).toBeVisible();
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(0);

    fireEvent.change(url, { target: { value: 'https://ntfy.sh/mytopic' } });
    expect(url).not.toHaveAttribute('aria-invalid');
    fireEvent.click(within(form).getByRole('button', { name: tr('en', 'settings:channels.add.submit') }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toEqual({ kind: 'ntfy', url: 'https://ntfy.sh/mytopic' });
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: a webhook's secret is shown once, right after adding, with how to verify it and what is sent`, async () => {
      const { calls } = server([]);
      const section = await open(lang);
      const form = await openAdd(lang, section);
      fireEvent.click(within(form).getByRole('radio', { name: new RegExp(tr(lang, 'settings:channels.kind.webhook')) }));
      expect(within(form).queryByLabelText(tr(lang, 'settings:channels.add.token'))).toBeNull();
      fireEvent.change(within(form).getByLabelText(tr(lang, 'settings:channels.add.webhookUrl')), { target: { value: 'https://example.com/hooks/hibiki' } });
      fireEvent.click(within(form).getByRole('button', { name: tr(lang, 'settings:channels.add.submit') }));
      await waitFor(() => expect(calls).toHaveLength(1));
      expect(calls[0]!.body).toEqual({ kind: 'webhook', url: 'https://example.com/hooks/hibiki' });

      const label = 'webhook https://example.com/hooks/hibiki';
      const heading = await within(section).findByRole('heading', { name: tr(lang, 'settings:channels.secret.title', { name: label }) });
      expect(heading).toHaveFocus();
      const secret = within(section).getByLabelText(tr(lang, 'settings:channels.secret.label'));
      expect(secret).toHaveValue('whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=');
      expect(secret).toHaveAttribute('readonly');
      expect(secret).toHaveAccessibleDescription(tr(lang, 'settings:channels.secret.copyNow'));
      expect(within(section).getByText(tr(lang, 'settings:channels.secret.payload'))).toBeVisible();
      expect(within(section).getByText(/"reminder\.ring"/)).toBeVisible();
      expect(within(section).getByRole('group', { name: label })).toBeVisible();

      const writeText = vi.fn(() => Promise.resolve());
      Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
      try {
        fireEvent.click(within(section).getByRole('button', { name: tr(lang, 'settings:channels.secret.copy') }));
        await waitFor(() => expect(writeText).toHaveBeenCalledWith('whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ='));
        await waitFor(() => expect(toasts()).toContain(tr(lang, 'settings:channels.secret.copied')));
      } finally {
        delete (navigator as { clipboard?: unknown }).clipboard;
      }

      fireEvent.click(within(section).getByRole('button', { name: tr(lang, 'settings:channels.secret.done') }));
      await waitFor(() => expect(within(section).queryByLabelText(tr(lang, 'settings:channels.secret.label'))).toBeNull());
      expect(screen.queryByDisplayValue(/whsec_/)).toBeNull();
      expect(screen.queryByText(/whsec_/)).toBeNull();
      expect(within(section).getByRole('button', { name: tr(lang, 'settings:channels.add.open') })).toHaveFocus();
      // the list, read again, never carries it
      expect(within(section).getByRole('group', { name: label })).toBeVisible();
    });
  }

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: an unsafe URL (ENDPOINT_REJECTED) is refused at the URL field, with why`, async () => {
      server([], {
        'POST /api/channels': () => json(400, { success: false, error: { code: 'ENDPOINT_REJECTED', message: 'private address' } }),
      });
      const section = await open(lang);
      const form = await openAdd(lang, section);
      fireEvent.click(within(form).getByRole('radio', { name: new RegExp(tr(lang, 'settings:channels.kind.webhook')) }));
      const url = within(form).getByLabelText(tr(lang, 'settings:channels.add.webhookUrl'));
      fireEvent.change(url, { target: { value: 'https://192.168.1.5/hook' } });
      fireEvent.click(within(form).getByRole('button', { name: tr(lang, 'settings:channels.add.submit') }));
      const message = tr(lang, 'settings:channels.errors.endpointRejected');
      expect(await within(form).findByText(message)).toBeVisible();
      expect(url).toHaveAttribute('aria-invalid', 'true');
      expect(url).toHaveAccessibleDescription(message);
      expect(url).toHaveValue('https://192.168.1.5/hook');
    });
  }

  it('en: the server\'s field refusals show at the URL and the token', async () => {
    server([], {
      'POST /api/channels': () =>
        json(400, {
          success: false,
          error: {
            code: 'VALIDATION_FAILED',
            message: 'invalid',
            details: [
              { field: 'url', code: 'invalid_format' },
              { field: 'token', code: 'invalid_format' },
            ],
          },
        }),
    });
    const section = await open('en');
    const form = await openAdd('en', section);
    fireEvent.change(within(form).getByLabelText(tr('en', 'settings:channels.add.ntfyUrl')), { target: { value: 'https://ntfy.sh/' } });
    const token = within(form).getByLabelText(tr('en', 'settings:channels.add.token'));
    fireEvent.change(token, { target: { value: 'tk bad' } });
    fireEvent.click(within(form).getByRole('button', { name: tr('en', 'settings:channels.add.submit') }));
    expect(await within(form).findByText(tr('en', 'settings:channels.errors.ntfyUrl'))).toBeVisible();
    expect(within(form).getByText(tr('en', 'settings:channels.errors.token'))).toBeVisible();
    expect(token).toHaveAttribute('aria-invalid', 'true');
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: Telegram is tried on "Start linking"; not enabled on this server, it says so and can no longer be chosen`, async () => {
      const { calls } = server([], {
        'POST /api/channels': () => json(400, { success: false, error: { code: 'CHANNEL_UNAVAILABLE', message: 'not enabled' } }),
      });
      const section = await open(lang);
      const form = await openAdd(lang, section);
      const telegram = within(form).getByRole('radio', { name: new RegExp(tr(lang, 'settings:channels.kind.telegram')) });
      fireEvent.click(telegram);
      expect(within(form).queryByRole('textbox')).toBeNull();
      fireEvent.click(within(form).getByRole('button', { name: tr(lang, 'settings:channels.add.link') }));
      await waitFor(() => expect(calls).toHaveLength(1));
      expect(calls[0]!.body).toEqual({ kind: 'telegram' });
      const message = tr(lang, 'settings:channels.add.unavailableError', { kind: 'Telegram' });
      expect(await within(form).findByText(message)).toBeVisible();
      expect(telegram).toBeDisabled();
      expect(telegram).toHaveAccessibleDescription(tr(lang, 'settings:channels.add.unavailable'));
      expect(within(form).getByRole('button', { name: tr(lang, 'settings:channels.add.link') })).toBeDisabled();
      // LINE is still offered
      expect(within(form).getByRole('radio', { name: new RegExp(tr(lang, 'settings:channels.kind.line')) })).toBeEnabled();
    });
  }

  it('en: Telegram where it is enabled: its link to press Start in', async () => {
    const pending: Channel = { id: 'ch-t', kind: 'telegram', label: 'Telegram', status: 'pending', use: { rings: true, fallback: false }, created_at: '2025-04-01T00:00:00Z' };
    const srv = server([], {
      'POST /api/channels': () => {
        srv.list.push(pending);
        return ok({ ...pending, link: 'https://t.me/hibiki_bot?start=abc123' }, 201);
      },
    });
    const section = await open('en');
    const form = await openAdd('en', section);
    fireEvent.click(within(form).getByRole('radio', { name: /Telegram/ }));
    fireEvent.click(within(form).getByRole('button', { name: tr('en', 'settings:channels.add.link') }));
    const link = await within(section).findByRole('link', { name: tr('en', 'settings:channels.linking.openTelegram') });
    expect(link).toHaveAttribute('href', 'https://t.me/hibiki_bot?start=abc123');
    const listed = await within(section).findByRole('group', { name: 'Telegram' });
    expect(within(listed).getByText(tr('en', 'settings:channels.status.pending'))).toBeVisible();
  });

  it('ja: past 10 channels (CHANNEL_LIMIT) the form says so', async () => {
    server([], { 'POST /api/channels': () => json(409, { success: false, error: { code: 'CHANNEL_LIMIT', message: 'limit' } }) });
    const section = await open('ja');
    const form = await openAdd('ja', section);
    fireEvent.change(within(form).getByLabelText(tr('ja', 'settings:channels.add.ntfyUrl')), { target: { value: 'https://ntfy.sh/x-topic' } });
    fireEvent.click(within(form).getByRole('button', { name: tr('ja', 'settings:channels.add.submit') }));
    expect(await within(form).findByText(tr('ja', 'settings:channels.add.limit'))).toBeVisible();
  });

  it('en: with 10 channels, adding is disabled and says why', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({ ...PHONE, id: `c${i}`, label: `Topic ${i}` }));
    server(ten);
    const section = await open('en');
    await within(section).findByRole('group', { name: 'Topic 9' });
    const add = within(section).getByRole('button', { name: tr('en', 'settings:channels.add.open') });
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription(tr('en', 'settings:channels.add.limit'));
  });
});

describe('Settings: the daily brief by a channel', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: the active channels are offered beside notification and email; choosing one saves its id`, async () => {
      const { calls } = server([PHONE, HOOK, TG], {}, { ...SETTINGS, daily_brief: { time: '07:00', via: 'push' } });
      renderApp(`${prefix(lang)}/settings`);
      const group = await screen.findByRole('group', { name: tr(lang, 'settings:brief.title') });
      const via = within(group).getByRole('group', { name: tr(lang, 'settings:brief.via') });
      const phone = await within(via).findByRole('radio', { name: tr(lang, 'settings:brief.viaChannelNamed', { name: PHONE.label, kind: 'ntfy' }) });
      // failing and not linked channels are not offered
      expect(within(via).getAllByRole('radio')).toHaveLength(3);
      expect(within(via).queryByRole('radio', { name: new RegExp(HOOK.label) })).toBeNull();

      fireEvent.click(phone);
      fireEvent.click(screen.getByRole('button', { name: tr(lang, 'settings:save') }));
      await waitFor(() => expect(calls.filter((c) => c.path === '/api/settings')).toHaveLength(1));
      expect(calls.find((c) => c.path === '/api/settings')!.body).toMatchObject({ daily_brief: { time: '07:00', via: 'ch-1' } });
    });
  }

  it('en: a brief already going to a failing channel keeps it, named with its status', async () => {
    server([PHONE, HOOK], {}, { ...SETTINGS, daily_brief: { time: '07:00', via: 'ch-2' } });
    renderApp('/en/settings');
    const group = await screen.findByRole('group', { name: tr('en', 'settings:brief.title') });
    const hook = await within(group).findByRole('radio', {
      name: tr('en', 'settings:brief.viaChannelStatus', { name: HOOK.label, kind: 'Webhook', status: tr('en', 'settings:channels.status.failing') }),
    });
    expect(hook).toBeChecked();
    expect(within(group).queryByRole('radio', { name: tr('en', 'settings:brief.viaChannel') })).toBeNull();
  });

  it('ja: without channels, a hint says where to add one', async () => {
    server([], {}, { ...SETTINGS, daily_brief: { time: '07:00', via: 'email' } });
    renderApp('/settings');
    const group = await screen.findByRole('group', { name: tr('ja', 'settings:brief.title') });
    expect(await within(group).findByText(tr('ja', 'settings:brief.channelsHint'))).toBeVisible();
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
  });
});
