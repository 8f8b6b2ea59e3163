/**
 * Settings → API tokens (api.md "Tokens, triggers, export and import"): the list says what each
 * token may do in words, when it was made and last used (or never), when it stops working (or
 * that it does not), an expired one marked; a new token is shown once, with Copy, the "you will
 * not see it again" note and a curl example with the real token and this page's origin; deleting
 * asks first; TOKEN_LIMIT and a refused field read in words; offline the controls wait.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { clearToasts, getToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { Settings, User } from '../../lib/types';
import { json, mockFetch, ok, preloadApp, renderApp, type Handler } from '../../test/renderApp';
import { tr } from '../../test/texts';
import type { ApiToken, CreatedApiToken, NewApiToken } from './dataApi';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const SETTINGS: Settings = {
  timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 10, speak_titles: false, hide_notification_content: false,
  email_fallback_minutes: 5, morning_time: '08:00', evening_time: '18:00', quiet_hours: null, daily_brief: null,
};
const HA: ApiToken = { id: 'tok-1', name: 'Home Assistant', scopes: ['reminders:read', 'reminders:write'], created_at: '2026-01-05T00:00:00Z', last_used_at: null, expires_at: null };
const OLD: ApiToken = { id: 'tok-2', name: 'Old script', scopes: ['lists:read'], created_at: '2025-01-05T00:00:00Z', last_used_at: '2025-02-01T00:00:00Z', expires_at: '2025-03-01T00:00:00Z' };
const SECRET = 'hbk_TESTtokenTESTtokenTESTtokenTESTtoken12';
const prefix = (lang: Lang) => (lang === 'en' ? '/en' : '');
const toasts = () => getToasts().map((t) => t.message);

function server(tokens: ApiToken[], routes: Record<string, Handler> = {}) {
  const list = [...tokens];
  const calls: { method: string; path: string; body: unknown }[] = [];
  mockFetch({
    'GET /api/settings': () => ok(SETTINGS),
    'GET /api/notifications/subscriptions': () => ok([]),
    'GET /api/auth/sessions': () => ok([]),
    'GET /api/channels': () => ok([]),
    'GET /api/tokens': () => ok(list),
    'POST /api/tokens': (url, init) => {
      const body = JSON.parse(String(init.body)) as NewApiToken;
      calls.push({ method: 'POST', path: '/api/tokens', body });
      if (routes['POST /api/tokens']) return routes['POST /api/tokens'](url, init);
      const made: CreatedApiToken = { id: `tok-new-${list.length}`, name: body.name, scopes: body.scopes, created_at: new Date().toISOString(), last_used_at: null, expires_at: null, token: SECRET };
      const { token: _t, ...listed } = made;
      list.unshift(listed);
      return ok(made, 201);
    },
    ...Object.fromEntries(
      tokens.map((tk) => [
        `DELETE /api/tokens/${tk.id}`,
        () => {
          calls.push({ method: 'DELETE', path: `/api/tokens/${tk.id}`, body: undefined });
          list.splice(list.findIndex((x) => x.id === tk.id), 1);
          return json(204, null);
        },
      ]),
    ),
  });
  return { calls, list };
}

async function open(lang: Lang) {
  renderApp(`${prefix(lang)}/settings`);
  return screen.findByRole('region', { name: tr(lang, 'data:tokens.title') }, { timeout: 10_000 });
}

async function openForm(lang: Lang, section: HTMLElement) {
  fireEvent.click(await within(section).findByRole('button', { name: tr(lang, 'data:tokens.add.open') }));
  return within(section).getByRole('form', { name: tr(lang, 'data:tokens.add.title') });
}

beforeAll(preloadApp, 120_000);
beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('Settings: API tokens', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: each token with its scopes in words, never used / last used, no expiry / expired`, async () => {
      server([HA, OLD]);
      const section = await open(lang);
      const ha = await within(section).findByRole('listitem', { name: HA.name });
      expect(within(ha).getByText(tr(lang, 'data:tokens.scope.remindersRead'))).toBeVisible();
      expect(within(ha).getByText(tr(lang, 'data:tokens.scope.remindersWrite'))).toBeVisible();
      expect(ha).toHaveTextContent(tr(lang, 'data:tokens.neverUsed'));
      expect(ha).toHaveTextContent(tr(lang, 'data:tokens.noExpiry'));
      expect(within(ha).queryByText(tr(lang, 'data:tokens.expired'))).toBeNull();

      const old = within(section).getByRole('listitem', { name: OLD.name });
      expect(within(old).getByText(tr(lang, 'data:tokens.scope.listsRead'))).toBeVisible();
      expect(within(old).getByText(tr(lang, 'data:tokens.expired'))).toBeVisible();
      expect(old).not.toHaveTextContent(tr(lang, 'data:tokens.neverUsed'));
      expect(old).not.toHaveTextContent(tr(lang, 'data:tokens.noExpiry'));
    });
  }

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: a new token is shown once, with Copy, the note and a curl example with the real token and this origin`, async () => {
      const writeText = vi.fn(() => Promise.resolve());
      Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
      onTestFinished(() => void delete (navigator as { clipboard?: unknown }).clipboard);
      const { calls, list } = server([]);
      const section = await open(lang);
      expect(await within(section).findByText(tr(lang, 'data:tokens.none'))).toBeVisible();
      const form = await openForm(lang, section);
      fireEvent.change(within(form).getByLabelText(tr(lang, 'data:tokens.add.name')), { target: { value: 'Shortcut' } });
      // reminders:read is chosen already; lists:read added; 90 days
      expect(within(form).getByRole('checkbox', { name: new RegExp(tr(lang, 'data:tokens.scope.remindersRead')) })).toBeChecked();
      fireEvent.click(within(form).getByRole('checkbox', { name: new RegExp(tr(lang, 'data:tokens.scope.listsRead')) }));
      fireEvent.change(within(form).getByLabelText(tr(lang, 'data:tokens.add.expiry')), { target: { value: '90' } });
      fireEvent.click(within(form).getByRole('button', { name: tr(lang, 'data:tokens.add.create') }));

      const made = await within(section).findByRole('region', { name: tr(lang, 'data:tokens.made.title', { name: 'Shortcut' }) });
      expect(calls[0]).toEqual({ method: 'POST', path: '/api/tokens', body: { name: 'Shortcut', scopes: ['reminders:read', 'lists:read'], expires_in_days: 90 } });
      const field = within(made).getByLabelText(tr(lang, 'data:tokens.made.label'));
      expect(field).toHaveValue(SECRET);
      expect(field).toHaveAttribute('readonly');
      expect(field).toHaveAccessibleDescription(tr(lang, 'data:tokens.made.once'));
      expect(within(made).getByText(tr(lang, 'data:tokens.made.readReminders'))).toBeVisible();
      expect(within(made).getByText(`curl -H "Authorization: Bearer ${SECRET}" ${window.location.origin}/api/reminders`)).toBeVisible();
      fireEvent.click(within(made).getByRole('button', { name: tr(lang, 'data:tokens.made.copy') }));
      await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
      expect(toasts()).toContain(tr(lang, 'data:tokens.made.copied'));

      // in the list, without its secret; once Done, the token is nowhere on the page
      expect(await within(section).findByRole('listitem', { name: 'Shortcut' })).toBeVisible();
      expect(list[0]).not.toHaveProperty('token');
      fireEvent.click(within(made).getByRole('button', { name: tr(lang, 'data:tokens.made.done') }));
      await waitFor(() => expect(section).not.toHaveTextContent(SECRET));
      expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    });
  }

  it('en: a write-only token\'s example makes a reminder, titled in the reader\'s language', async () => {
    server([], {
      'POST /api/tokens': () => ok({ id: 't9', name: 'Bot', scopes: ['reminders:write'], created_at: '2026-01-01T00:00:00Z', token: SECRET }, 201),
    });
    const section = await open('en');
    const form = await openForm('en', section);
    fireEvent.change(within(form).getByLabelText(tr('en', 'data:tokens.add.name')), { target: { value: 'Bot' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: new RegExp(tr('en', 'data:tokens.scope.remindersRead')) }));
    fireEvent.click(within(form).getByRole('checkbox', { name: new RegExp(tr('en', 'data:tokens.scope.remindersWrite')) }));
    fireEvent.click(within(form).getByRole('button', { name: tr('en', 'data:tokens.add.create') }));
    const made = await within(section).findByRole('region', { name: tr('en', 'data:tokens.made.title', { name: 'Bot' }) });
    const code = made.querySelector('code')!;
    expect(code.textContent).toContain(`curl -X POST -H "Authorization: Bearer ${SECRET}"`);
    expect(code.textContent).toContain(`"title":"${tr('en', 'data:tokens.made.exampleTitle')}"`);
    expect(code.textContent).toContain(`${window.location.origin}/api/reminders`);
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: past 20 tokens (TOKEN_LIMIT) the form says so in words`, async () => {
      server([HA], { 'POST /api/tokens': () => json(409, { success: false, error: { code: 'TOKEN_LIMIT', message: 'at most 20 tokens' } }) });
      const section = await open(lang);
      const form = await openForm(lang, section);
      fireEvent.change(within(form).getByLabelText(tr(lang, 'data:tokens.add.name')), { target: { value: 'One more' } });
      fireEvent.click(within(form).getByRole('button', { name: tr(lang, 'data:tokens.add.create') }));
      expect(await within(form).findByRole('alert')).toHaveTextContent(tr(lang, 'data:tokens.add.limit', { max: 20 }));
    });
  }

  it('ja: a name and a scope are needed before sending; the server\'s refusal shows at its field', async () => {
    const { calls } = server([], {
      'POST /api/tokens': () =>
        json(400, {
          success: false,
          error: { code: 'VALIDATION_FAILED', message: 'bad', details: [{ field: 'name', code: 'too_long', params: { max: 100 } }] },
        }),
    });
    const section = await open('ja');
    const form = await openForm('ja', section);
    fireEvent.click(within(form).getByRole('checkbox', { name: new RegExp(tr('ja', 'data:tokens.scope.remindersRead')) }));
    fireEvent.click(within(form).getByRole('button', { name: tr('ja', 'data:tokens.add.create') }));
    expect(await within(form).findByText(tr('ja', 'data:tokens.errors.nameRequired'))).toBeVisible();
    expect(within(form).getByText(tr('ja', 'data:tokens.errors.scopesRequired'))).toBeVisible();
    expect(calls).toHaveLength(0);

    const name = within(form).getByLabelText(tr('ja', 'data:tokens.add.name'));
    fireEvent.change(name, { target: { value: 'スクリプト' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: new RegExp(tr('ja', 'data:tokens.scope.listsWrite')) }));
    fireEvent.click(within(form).getByRole('button', { name: tr('ja', 'data:tokens.add.create') }));
    expect(await within(form).findByText(tr('ja', 'data:tokens.errors.nameTooLong', { max: 100 }))).toBeVisible();
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: delete asks first, then the token leaves the list`, async () => {
      const { calls } = server([HA, OLD]);
      const section = await open(lang);
      const ha = await within(section).findByRole('listitem', { name: HA.name });
      fireEvent.click(within(ha).getByRole('button', { name: tr(lang, 'data:tokens.deleteNamed', { name: HA.name }) }));
      const dialog = await screen.findByRole('dialog', { name: tr(lang, 'data:tokens.deleteTitle', { name: HA.name }) });
      expect(within(dialog).getByText(tr(lang, 'data:tokens.deleteText'))).toBeVisible();
      expect(calls).toHaveLength(0);
      fireEvent.click(within(dialog).getByRole('button', { name: tr(lang, 'data:tokens.delete') }));
      await waitFor(() => expect(calls).toEqual([{ method: 'DELETE', path: '/api/tokens/tok-1', body: undefined }]));
      await waitFor(() => expect(within(section).queryByRole('listitem', { name: HA.name })).toBeNull());
      expect(toasts()).toContain(tr(lang, 'data:tokens.deleted', { name: HA.name }));
      expect(within(section).getByRole('listitem', { name: OLD.name })).toBeVisible();
    });
  }

  it('en: offline, making and deleting tokens wait, with the reason in words', async () => {
    server([HA]);
    const section = await open('en');
    const ha = await within(section).findByRole('listitem', { name: HA.name });
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));
    const add = within(section).getByRole('button', { name: tr('en', 'data:tokens.add.open') });
    expect(add).toBeDisabled();
    expect(add).toHaveAccessibleDescription(tr('en', 'data:tokens.offline'));
    expect(within(ha).getByRole('button', { name: tr('en', 'data:tokens.deleteNamed', { name: HA.name }) })).toBeDisabled();
    online.mockReturnValue(true);
    act(() => void window.dispatchEvent(new Event('online')));
    expect(add).toBeEnabled();
  });
});
