/**
 * The guide page: its progress advances with what the person has done (signed in, a reminder
 * of their own), `#troubleshooting` opens the wizard, and the diagnostics tab lists notification
 * permission and push subscription as separate rows.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../components/toast';
import { resetAuthForTests } from '../lib/authStore';
import type { User } from '../lib/types';
import { resetGuideProgressForTests } from '../shared/guideProgress';
import { mockFetch, ok, renderApp } from '../test/renderApp';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };

beforeEach(() => {
  clearToasts();
  // The progress is one store for the app (it outlives a render).
  resetGuideProgressForTests();
});

describe('guide', () => {
  it('signed in with a reminder: the sign-in and create steps are ticked (2 of 5)', async () => {
    resetAuthForTests({ status: 'signedIn', user: USER });
    mockFetch({
      'GET /api/auth/session': () => ok({ user: USER, is_admin: false }),
      'GET /api/reminders': () => ok([{ id: 'r1', title: '薬', scheduled_at: '2030-01-01T00:00:00Z' }]),
    });
    renderApp('/en/guide');
    expect(await screen.findByText('2 of 5 done')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Create a reminder/ })).toBeChecked();
  });

  it('signed out: nothing is ticked by itself', async () => {
    resetAuthForTests({ status: 'signedOut' });
    mockFetch({});
    renderApp('/guide');
    expect(await screen.findByText('0 / 5 完了')).toBeInTheDocument();
  });

  it('#troubleshooting opens the wizard at its first question', async () => {
    resetAuthForTests({ status: 'signedOut' });
    mockFetch({});
    renderApp('/guide#troubleshooting');
    const panel = await screen.findByRole('tabpanel', { name: 'トラブルシューティング' });
    expect(within(panel).getByRole('heading', { name: 'どんな問題がありますか？' })).toBeInTheDocument();
    fireEvent.click(within(panel).getByRole('button', { name: '通知が遅れて届く' }));
    expect(within(panel).getByRole('heading', { name: 'Hibiki を画面に開いているときは、時間どおりに届きますか？' })).toHaveFocus();
  });

  it('diagnostics: permission and subscription are separate rows, then the worker and the connection', async () => {
    resetAuthForTests({ status: 'signedOut' });
    mockFetch({ 'HEAD /api/health': () => new Response(null, { status: 200 }) });
    renderApp('/en/guide#diagnostics');
    const panel = await screen.findByRole('tabpanel', { name: 'System diagnostics' });
    const names = within(panel).getAllByText((_, el) => el?.classList.contains('health-name') === true && el.closest('.diagnostics') !== null);
    expect(names.map((n) => n.textContent)).toEqual(['Notification permission', 'Push subscription', 'Service worker', 'Server connection']);
    expect(await within(panel).findByText('Connected')).toBeInTheDocument();
  });
});
