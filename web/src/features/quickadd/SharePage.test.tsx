/**
 * The share target (/share?title=&text=&url=): signed in, it opens the reminders page with quick
 * add filled in (title and text) and the shared link kept for the description, which the create
 * dialog opens with; signed out, it goes through sign-in and lands there with the text kept.
 */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts } from '../../components/toast';
import { resetAuthForTests } from '../../lib/authStore';
import type { Settings, User } from '../../lib/types';
import { clearQuickAddDraft } from '../../shared/quickAddDraft';
import { mockFetch, ok, preloadApp, renderApp } from '../../test/renderApp';
import { tr } from '../../test/texts';
import { sharedDraft } from './SharePage';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const SETTINGS: Settings = {
  timezone: 'Asia/Tokyo', language: 'en', default_snooze_minutes: 10, speak_titles: false, hide_notification_content: false,
  email_fallback_minutes: 5, morning_time: '08:00', evening_time: '18:00', quiet_hours: null, daily_brief: null,
};
const SHARED = '/en/share?title=Buy%20milk&text=tomorrow%209am&url=https%3A%2F%2Fexample.com%2Fshop';
const loc = () => screen.getByTestId('location').textContent;

beforeAll(async () => {
  await preloadApp();
  await import('./SharePage');
}, 120_000);
beforeEach(() => {
  clearToasts();
  clearQuickAddDraft();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  mockFetch({
    'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
    'GET /api/reminders': () => ok([]),
    'GET /api/settings': () => ok(SETTINGS),
    'GET /api/lists': () => ok([]),
    'GET /api/notifications/subscriptions': () => ok([]),
  });
});

describe('sharedDraft', () => {
  it('title and text make the phrase; the url, or a link in the text, the description', () => {
    expect(sharedDraft(new URLSearchParams('title=Buy milk&text=tomorrow 9am&url=https://example.com'))).toEqual({ phrase: 'Buy milk tomorrow 9am', note: 'https://example.com' });
    expect(sharedDraft(new URLSearchParams('text=Read this https://example.com/a later'))).toEqual({ phrase: 'Read this later', note: 'https://example.com/a' });
    expect(sharedDraft(new URLSearchParams('title=Pay&text=Pay rent'))).toEqual({ phrase: 'Pay rent', note: '' });
  });
});

describe('the share target', () => {
  it('signed in: the reminders page with quick add filled, and the dialog opens with the link as the description', async () => {
    resetAuthForTests({ user: USER, status: 'signedIn' });
    renderApp(SHARED);
    await waitFor(() => expect(loc()).toBe('/en/reminders'));
    const box = await screen.findByLabelText(tr('en', 'reminders:quickAdd.label'));
    expect(box).toHaveValue('Buy milk tomorrow 9am');
    expect(await screen.findByTestId('quick-add-link')).toHaveTextContent('https://example.com/shop');
    fireEvent.keyDown(box, { key: 'Enter' });
    const dialog = await screen.findByRole('dialog', { name: tr('en', 'reminders:dialog.createTitle') });
    await waitFor(() => expect(dialog.querySelector('textarea')).toHaveValue('https://example.com/shop'));
  });

  it('signed out: through sign-in first, then there with the text kept', async () => {
    resetAuthForTests({ user: null, status: 'signedOut' });
    renderApp(SHARED);
    await waitFor(() => expect(loc()).toBe('/en/login'));
    act(() => resetAuthForTests({ user: USER, status: 'signedIn' }));
    await waitFor(() => expect(loc()).toBe('/en/reminders'));
    expect(await screen.findByLabelText(tr('en', 'reminders:quickAdd.label'))).toHaveValue('Buy milk tomorrow 9am');
  });
});
