/**
 * Settings → quiet hours and the daily brief: off, or on with their defaults (22:00–07:00; 07:00
 * by notification); saved with the other settings (the PUT carries them, null when off); a
 * brief going to a linked channel keeps it; the server's refusals show at their fields and go
 * once the field changes.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { Lang } from '../../lib/lang';
import type { Settings, User } from '../../lib/types';
import { json, mockFetch, ok, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const SETTINGS: Settings = {
  timezone: 'Asia/Tokyo', language: 'ja', default_snooze_minutes: 10, speak_titles: false, hide_notification_content: false,
  email_fallback_minutes: 5, morning_time: '08:00', evening_time: '18:00', quiet_hours: null, daily_brief: null,
};
const prefix = (lang: Lang) => (lang === 'en' ? '/en' : '');

function server(settings: Settings, put?: (body: Partial<Settings>) => Response) {
  const puts: Partial<Settings>[] = [];
  mockFetch({
    'GET /api/settings': () => ok(settings),
    'GET /api/notifications/subscriptions': () => ok([]),
    'GET /api/auth/sessions': () => ok([]),
    'PUT /api/settings': (_u, init) => {
      const body = JSON.parse(String(init.body)) as Partial<Settings>;
      puts.push(body);
      return put ? put(body) : ok({ ...settings, ...body });
    },
  });
  return puts;
}

async function open(lang: Lang, name: 'quiet' | 'brief') {
  renderApp(`${prefix(lang)}/settings`);
  return screen.findByRole('group', { name: tr(lang, `settings:${name}.title`) });
}

const save = (lang: Lang) => fireEvent.click(screen.getByRole('button', { name: tr(lang, 'settings:save') }));

beforeAll(preloadApp, 120_000);
beforeEach(() => {
  clearToasts();
  resetAuthForTests({ user: USER, status: 'signedIn' });
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

describe('Settings: quiet hours', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: off at first; turned on it starts 22:00–07:00 (overnight, said so); a changed start is saved`, async () => {
      const puts = server(SETTINGS);
      const group = await open(lang, 'quiet');
      expect(group).toHaveAccessibleDescription(tr(lang, 'settings:quiet.intro'));
      const toggle = within(group).getByRole('switch', { name: tr(lang, 'settings:quiet.on') });
      expect(toggle).not.toBeChecked();
      expect(within(group).queryByLabelText(tr(lang, 'settings:quiet.start'))).toBeNull();

      fireEvent.click(toggle);
      const start = within(group).getByLabelText(tr(lang, 'settings:quiet.start'));
      const end = within(group).getByLabelText(tr(lang, 'settings:quiet.end'));
      expect(start).toHaveValue('22:00');
      expect(end).toHaveValue('07:00');
      expect(within(group).getByText(tr(lang, 'settings:quiet.overnight', { start: '22:00', end: '07:00' }))).toBeVisible();

      fireEvent.change(start, { target: { value: '23:30' } });
      save(lang);
      await waitFor(() => expect(puts).toHaveLength(1));
      expect(puts[0]).toMatchObject({ quiet_hours: { start: '23:30', end: '07:00' }, daily_brief: null, timezone: 'Asia/Tokyo' });
      await waitFor(() => expect(getToasts().map((t) => t.message)).toContain(tr(lang, 'settings:saved')));
    });
  }

  it('en: set quiet hours show as set; turned off, null is saved; on again, the same hours come back', async () => {
    const puts = server({ ...SETTINGS, quiet_hours: { start: '21:00', end: '23:00' } });
    const group = await open('en', 'quiet');
    const toggle = within(group).getByRole('switch', { name: tr('en', 'settings:quiet.on') });
    await waitFor(() => expect(toggle).toBeChecked());
    expect(within(group).getByLabelText(tr('en', 'settings:quiet.start'))).toHaveValue('21:00');
    expect(within(group).getByText(tr('en', 'settings:quiet.sameDay', { start: '21:00', end: '23:00' }))).toBeVisible();
    fireEvent.click(toggle);
    fireEvent.click(toggle);
    expect(within(group).getByLabelText(tr('en', 'settings:quiet.end'))).toHaveValue('23:00');
    fireEvent.click(toggle);
    save('en');
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.quiet_hours).toBeNull();
  });

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: the server's refusal shows at the end field, and goes once it changes`, async () => {
      const puts = server(SETTINGS, () =>
        json(400, {
          success: false,
          error: { code: 'VALIDATION_FAILED', message: 'invalid', details: [{ field: 'quiet_hours.end', code: 'conflict' }] },
        }),
      );
      const group = await open(lang, 'quiet');
      fireEvent.click(within(group).getByRole('switch', { name: tr(lang, 'settings:quiet.on') }));
      const end = within(group).getByLabelText(tr(lang, 'settings:quiet.end'));
      fireEvent.change(end, { target: { value: '22:00' } });
      save(lang);
      const message = tr(lang, 'errors:field.quietSame');
      await waitFor(() => expect(within(group).getByText(message)).toBeVisible());
      expect(end).toHaveAttribute('aria-invalid', 'true');
      expect(end).toHaveAccessibleDescription(message);
      expect(within(group).getByLabelText(tr(lang, 'settings:quiet.start'))).not.toHaveAttribute('aria-invalid');
      expect(getToasts().map((t) => t.message)).toContain(message);
      expect(puts[0]).toMatchObject({ quiet_hours: { start: '22:00', end: '22:00' } });

      fireEvent.change(end, { target: { value: '06:00' } });
      expect(within(group).queryByText(message)).toBeNull();
      expect(end).not.toHaveAttribute('aria-invalid');
    });
  }
});

describe('Settings: daily brief', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: says what it sends; turned on: 07:00 by notification; by email at 06:30 is saved`, async () => {
      const puts = server(SETTINGS);
      const group = await open(lang, 'brief');
      expect(group).toHaveAccessibleDescription(tr(lang, 'settings:brief.intro'));
      fireEvent.click(within(group).getByRole('switch', { name: tr(lang, 'settings:brief.on') }));
      const time = within(group).getByLabelText(tr(lang, 'settings:brief.time'));
      expect(time).toHaveValue('07:00');
      const via = within(group).getByRole('group', { name: tr(lang, 'settings:brief.via') });
      expect(within(via).getByRole('radio', { name: tr(lang, 'settings:brief.viaPush') })).toBeChecked();

      fireEvent.click(within(via).getByRole('radio', { name: tr(lang, 'settings:brief.viaEmail') }));
      fireEvent.change(time, { target: { value: '06:30' } });
      save(lang);
      await waitFor(() => expect(puts).toHaveLength(1));
      expect(puts[0]).toMatchObject({ daily_brief: { time: '06:30', via: 'email' }, quiet_hours: null });
    });
  }

  it('en: a brief going to a linked channel keeps it; turned off, null is saved', async () => {
    const puts = server({ ...SETTINGS, daily_brief: { time: '08:15', via: 'ch-1' } });
    const group = await open('en', 'brief');
    const channel = await within(group).findByRole('radio', { name: tr('en', 'settings:brief.viaChannel') });
    expect(channel).toBeChecked();
    save('en');
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]!.daily_brief).toEqual({ time: '08:15', via: 'ch-1' });

    fireEvent.click(within(group).getByRole('switch', { name: tr('en', 'settings:brief.on') }));
    await waitFor(() => expect(screen.getByRole('button', { name: tr('en', 'settings:save') })).toBeEnabled());
    save('en');
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]!.daily_brief).toBeNull();
  });

  it('ja: a refused via shows at the choice', async () => {
    server(SETTINGS, () =>
      json(400, { success: false, error: { code: 'VALIDATION_FAILED', message: 'invalid', details: [{ field: 'daily_brief.via', code: 'invalid_choice' }] } }),
    );
    const group = await open('ja', 'brief');
    fireEvent.click(within(group).getByRole('switch', { name: tr('ja', 'settings:brief.on') }));
    save('ja');
    const message = tr('ja', 'errors:field.briefVia');
    await waitFor(() => expect(within(group).getByText(message)).toBeVisible());
    expect(within(group).getByRole('group', { name: tr('ja', 'settings:brief.via') })).toHaveAccessibleDescription(message);
  });
});
