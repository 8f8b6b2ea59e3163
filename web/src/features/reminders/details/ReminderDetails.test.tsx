/**
 * A reminder's details: the next occurrences and the delivery history as the server gives them,
 * and what Complete, Snooze (minutes, tomorrow morning, a picked time), Skip next and Send now
 * send and say. (Written against the details before they were split into parts, and kept.)
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter } from '../../../lib/router';
import { SWRConfig } from 'swr';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, getToasts } from '../../../components/toast';
import { initI18n } from '../../../i18n';
import { formatDay } from '../../../lib/format';
import type { DeliveryLog, Reminder } from '../../../lib/types';
import { deviceZone } from '../../../lib/zoneIds';
import { deferred, json, mockFetch, ok } from '../../../test/renderApp';
import { ReminderDetails } from './ReminderDetails';
import { tomorrowMorning } from '../actions/snoozeUntil';

const AT = '2030-01-01T00:00:00Z';
const CLOCK = { timezone: 'Asia/Tokyo', morningTime: '08:00', eveningTime: '18:00' };

function reminder(extra: Partial<Reminder> = {}): Reminder {
  return {
    id: 'r1', user_id: 'u1', title: 'Medicine', send_at: AT, scheduled_at: AT, timezone: 'Asia/Tokyo',
    recurrence: { kind: 'none' }, alerts: [{ before_minutes: 0 }], overdue: false, is_active: true, is_archived: false, status: 'pending',
    created_at: AT, updated_at: AT, ...extra,
  } as Reminder;
}

function log(id: string, at: string, extra: Partial<DeliveryLog> = {}): DeliveryLog {
  return { id, occurrence_at: at, kind: 'occurrence', status: 'delivered', late: false, devices: [], ...extra } as DeliveryLog;
}

const LOGS = [
  log('l1', '2029-12-30T00:00:00Z', { status: 'failed', devices: [{ subscription_id: 's0', label: null, status: 'failed' }] as DeliveryLog['devices'] }),
  log('l2', '2029-12-31T00:00:00Z', {
    status: 'shown',
    shown_at: '2029-12-31T00:00:05Z',
    devices: [{ subscription_id: 's1', label: 'iPhone', status: 'sent', shown_at: '2029-12-31T00:00:05Z' }] as DeliveryLog['devices'],
  }),
];

type Call = { method: string; url: string; body: unknown };

function server(routes: Parameters<typeof mockFetch>[0] = {}, logs: DeliveryLog[] = LOGS) {
  const calls: Call[] = [];
  const fetch = mockFetch({
    'GET /api/reminders/r1/occurrences': () => ok({ occurrences: ['2030-01-01T00:00:00Z', '2030-01-02T00:00:00Z'] }),
    'GET /api/reminders/r1/logs': () => ok(logs),
    ...routes,
  });
  const posts = () =>
    fetch.mock.calls
      .filter(([, init]) => init?.method === 'POST')
      .map(([url, init]): Call => ({ method: 'POST', url: String(url), body: init?.body ? JSON.parse(String(init.body)) : undefined }));
  const gets = (path: string) => fetch.mock.calls.filter(([url, init]) => (init?.method ?? 'GET') === 'GET' && String(url).split('?')[0] === path).length;
  return { calls, posts, gets };
}

function renderDetails(r: Reminder) {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <MemoryRouter initialEntries={['/en/reminders']}>
        <Suspense fallback={null}>
          <ReminderDetails reminder={r} snoozeMinutes={10} snoozeClock={CLOCK} />
        </Suspense>
      </MemoryRouter>
    </SWRConfig>,
  );
}

const toasts = () => getToasts().map((t) => `${t.kind}: ${t.message}`);

beforeAll(async () => {
  const i18n = initI18n('en');
  await i18n.changeLanguage('en');
  await i18n.loadNamespaces(['reminders', 'errors']);
});
beforeEach(() => clearToasts());

describe('ReminderDetails', () => {
  it('shows the next occurrences and the history, newest first, translated, with each device', async () => {
    server();
    renderDetails(reminder());
    const upcoming = await screen.findByRole('region', { name: 'Next notifications' });
    await waitFor(() => expect(within(upcoming).getAllByRole('listitem')).toHaveLength(2));
    const history = screen.getByRole('region', { name: 'Delivery history' });
    await waitFor(() => expect(history.querySelectorAll('.delivery-entry')).toHaveLength(2));
    const [newest, older] = [...history.querySelectorAll('.delivery-entry')] as [HTMLElement, HTMLElement];
    expect(newest).toHaveTextContent('On time');
    expect(newest).toHaveTextContent('Shown');
    // a label, capitalised: "Shown <when>"
    expect(newest.querySelector('p.muted.small')).toHaveTextContent(/^Shown \S/);
    expect(newest).toHaveTextContent('iPhone: Shown');
    expect(older).toHaveTextContent('Failed');
    expect(older).toHaveTextContent('Removed device: Failed');
    expect(older.querySelector('.badge.warn')).not.toBeNull();
  });

  it('next notifications list every ring to come, saying which are alerts, repeats or the snooze', async () => {
    server({
      'GET /api/reminders/r1/occurrences': () =>
        ok({
          occurrences: ['2030-01-02T00:00:00Z'],
          rings: [
            { at: '2030-01-01T00:05:00Z', kind: 'repeat', occurrence_at: '2030-01-01T00:00:00Z' },
            { at: '2030-01-01T00:10:00Z', kind: 'snooze', occurrence_at: '2030-01-01T00:10:00Z' },
            { at: '2030-01-01T23:50:00Z', kind: 'alert', occurrence_at: '2030-01-02T00:00:00Z' },
            { at: '2030-01-02T00:00:00Z', kind: 'occurrence', occurrence_at: '2030-01-02T00:00:00Z' },
          ],
        }),
    });
    renderDetails(reminder({ recurrence: { kind: 'daily' } as Reminder['recurrence'] }));
    const upcoming = await screen.findByRole('region', { name: 'Next notifications' });
    await waitFor(() => expect(within(upcoming).getAllByRole('listitem')).toHaveLength(4));
    const items = within(upcoming).getAllByRole('listitem').map((li) => li.querySelector('.badge')?.textContent ?? '');
    expect(items).toEqual(['Repeat', 'Snoozed', 'Alert', '']);
  });

  it('with nothing left to ring, the list says so rather than showing a past time', async () => {
    server({ 'GET /api/reminders/r1/occurrences': () => ok({ occurrences: [], rings: [] }) });
    renderDetails(reminder({ overdue: true }));
    expect(await screen.findByText('Nothing more is scheduled to ring.')).toBeInTheDocument();
  });

  it('Complete answers the latest delivery and says so', async () => {
    const s = server({ 'POST /api/reminders': () => ok(reminder({ status: 'completed' })) });
    renderDetails(reminder());
    fireEvent.click(await screen.findByRole('button', { name: 'Complete' }));
    await waitFor(() => expect(toasts()).toContain('success: Marked as complete.'));
    expect(s.posts()).toEqual([{ method: 'POST', url: '/api/reminders?action=handle', body: { reminder_id: 'r1', log_id: 'l2', action: 'complete' } }]);
  });

  it('Snooze sends the default minutes, or the minutes chosen', async () => {
    const s = server({ 'POST /api/reminders': () => ok(reminder()) });
    renderDetails(reminder());
    fireEvent.click(await screen.findByRole('button', { name: 'Snooze 10 min' }));
    await waitFor(() => expect(toasts()).toContain('success: Snoozed for 10 minutes.'));
    fireEvent.change(screen.getByRole('combobox', { name: 'Snooze' }), { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Snooze 30 min' }));
    await waitFor(() => expect(toasts()).toContain('success: Snoozed for 30 minutes.'));
    expect(s.posts().map((c) => c.body)).toEqual([
      { reminder_id: 'r1', log_id: 'l2', action: 'snooze', snooze_minutes: 10 },
      { reminder_id: 'r1', log_id: 'l2', action: 'snooze', snooze_minutes: 30 },
    ]);
  });

  it('Snooze until tomorrow morning sends that instant in the settings zone, and the toast says until when', async () => {
    const s = server({ 'POST /api/reminders': () => ok(reminder({ snoozed_until: '2030-01-01T23:00:00Z' })) });
    renderDetails(reminder());
    const menu = await screen.findByRole('combobox', { name: 'Snooze' });
    expect(within(menu).getByRole('option', { name: 'Tomorrow morning (08:00)' })).toBeInTheDocument();
    fireEvent.change(menu, { target: { value: 'morning' } });
    fireEvent.click(screen.getByRole('button', { name: 'Snooze' }));
    await waitFor(() => expect(toasts().some((t) => t.startsWith('success: Snoozed until '))).toBe(true));
    const body = s.posts()[0]!.body as { snooze_until: string };
    expect(body).toEqual({ reminder_id: 'r1', log_id: 'l2', action: 'snooze', snooze_until: tomorrowMorning(Date.now(), 'Asia/Tokyo', '08:00') });
    expect(body.snooze_until).toMatch(/T08:00:00\+09:00$/);
  });

  it('a picked time that will not do is said beside the field and nothing is sent; changing it clears that', async () => {
    const s = server({ 'POST /api/reminders': () => ok(reminder()) });
    renderDetails(reminder());
    fireEvent.change(await screen.findByRole('combobox', { name: 'Snooze' }), { target: { value: 'pick' } });
    const field = screen.getByLabelText('Snooze until');
    fireEvent.click(screen.getByRole('button', { name: 'Snooze' }));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAttribute('aria-describedby', 'snooze-at-r1-err');
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(s.posts()).toEqual([]);
    fireEvent.change(field, { target: { value: '2000-01-01T08:00' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(field).not.toHaveAttribute('aria-invalid');
  });

  it('Skip next (repeating only) names the date the server added to the skipped ones', async () => {
    const daily = reminder({ recurrence: { kind: 'daily', skip: ['2029-12-25'] } as Reminder['recurrence'] });
    const s = server({ 'POST /api/reminders/r1/skip': () => ok({ ...daily, recurrence: { kind: 'daily', skip: ['2029-12-25', '2030-01-02'] } }) });
    renderDetails(daily);
    fireEvent.click(await screen.findByRole('button', { name: 'Skip next' }));
    const day = formatDay('2030-01-02', { lang: 'en', now: Date.now(), zone: deviceZone() });
    await waitFor(() => expect(toasts()).toContain(`success: Skipped ${day}.`));
    // with Undo (skipUndo.test.tsx)
    expect(getToasts()[0]?.action?.label).toBe('Undo');
    expect(s.posts().map((c) => c.url)).toEqual(['/api/reminders/r1/skip']);
  });

  it('a one-time reminder has no Skip next', async () => {
    server();
    renderDetails(reminder());
    await screen.findByRole('button', { name: 'Send now' });
    expect(screen.queryByRole('button', { name: 'Skip next' })).toBeNull();
  });

  it('Send now says where it went (devices, email, nowhere, no device) and reloads the history', async () => {
    const answers = [
      () => ok({ devices: 2, email: false }),
      () => ok({ devices: 0, email: true }),
      () => ok({ devices: 0, email: false }),
      () => json(404, { success: false, error: { code: 'SUBSCRIPTION_NOT_FOUND', message: 'none' } }),
    ];
    let n = 0;
    const s = server({ 'POST /api/reminders/r1/send': () => answers[n++]!() });
    renderDetails(reminder());
    const send = await screen.findByRole('button', { name: 'Send now' });
    await waitFor(() => expect(s.gets('/api/reminders/r1/logs')).toBe(1));
    // one toast at a time: each answer's replaces the one before
    const said = [
      'success: Sent to 2 devices.',
      'warning: No device can receive it, so it was sent to you by email.',
      'error: No device can receive it, and the email fallback is off. Enable notifications on this device.',
      'error: Please enable notifications first',
    ];
    for (const toast of said) {
      fireEvent.click(send);
      await waitFor(() => expect(toasts()).toEqual([toast]));
      await waitFor(() => expect(send).toBeEnabled());
    }
    await waitFor(() => expect(s.gets('/api/reminders/r1/logs')).toBe(4));
  });

  it('one action at a time: every button waits while one is on its way', async () => {
    const answer = deferred<Response>();
    server({ 'POST /api/reminders': () => answer.promise });
    renderDetails(reminder({ recurrence: { kind: 'daily' } as Reminder['recurrence'] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Complete' }));
    for (const name of ['Complete', 'Snooze 10 min', 'Skip next', 'Send now']) expect(screen.getByRole('button', { name })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Snooze' })).toBeDisabled();
    answer.resolve(ok(reminder()));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Complete' })).toBeEnabled());
  });

  it('not delivered yet: no Complete or Snooze, and it says when they come', async () => {
    server({}, []);
    renderDetails(reminder());
    expect(await screen.findByText('Not delivered yet.')).toBeInTheDocument();
    expect(screen.getByText('Snooze becomes available once the reminder has been delivered; Done marks it done before it rings.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Complete' })).toBeNull();
  });

  it('done early, before it rings: a one-time reminder is completed', async () => {
    const s = server({ 'POST /api/reminders/r1/complete': () => ok(reminder({ is_archived: true, is_active: false, status: 'completed' })) }, []);
    renderDetails(reminder());
    fireEvent.click(await screen.findByRole('button', { name: 'Mark “Medicine” done now, before it rings' }));
    await waitFor(() => expect(toasts()).toContain('success: Marked as complete.'));
    expect(s.posts()).toEqual([{ method: 'POST', url: '/api/reminders/r1/complete', body: undefined }]);
  });

  it('done early on a repeating reminder says when it rings next; so does Done once the last one is complete', async () => {
    const next = '2030-01-02T00:00:00Z';
    const done = [log('l3', '2029-12-31T00:00:00Z', { action: 'complete' } as Partial<DeliveryLog>)];
    const s = server({ 'POST /api/reminders/r1/complete': () => ok(reminder({ recurrence: { kind: 'daily' } as Reminder['recurrence'], scheduled_at: next })) }, done);
    renderDetails(reminder({ recurrence: { kind: 'daily' } as Reminder['recurrence'] }));
    fireEvent.click(await screen.findByRole('button', { name: 'Mark “Medicine” done now, before it rings' }));
    await waitFor(() => expect(toasts().some((t) => t.startsWith('success: Done. It rings next: '))).toBe(true));
    expect(s.posts().map((c) => c.url)).toEqual(['/api/reminders/r1/complete']);
  });

  it('done early needs the network: offline it is disabled and says why', async () => {
    server({}, []);
    render(
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <MemoryRouter initialEntries={['/en/reminders']}>
          <ReminderDetails reminder={reminder()} snoozeMinutes={10} snoozeClock={CLOCK} online={false} />
        </MemoryRouter>
      </SWRConfig>,
    );
    const button = await screen.findByRole('button', { name: 'Mark “Medicine” done now, before it rings' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('Marking done needs a connection.');
    // Send now needs it too, and says so in text beside it.
    expect(screen.getByRole('button', { name: 'Send now' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send now' })).toHaveAccessibleDescription('Send now needs a connection.');
  });

  it('offline, a repeating reminder\'s Skip next and Send now are disabled with the reason in text', async () => {
    const s = server({}, []);
    render(
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <MemoryRouter initialEntries={['/en/reminders']}>
          <ReminderDetails reminder={reminder({ recurrence: { kind: 'daily' } as Reminder['recurrence'] })} snoozeMinutes={10} snoozeClock={CLOCK} online={false} />
        </MemoryRouter>
      </SWRConfig>,
    );
    for (const name of ['Skip next', 'Send now']) {
      const button = await screen.findByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription('Skip next and Send now need a connection.');
    }
    expect(screen.getByText('Skip next and Send now need a connection.')).toBeVisible();
    expect(s.posts()).toEqual([]);
  });

  it('an archived reminder shows its history only: no next occurrences, no actions', async () => {
    const s = server();
    renderDetails(reminder({ is_archived: true, is_active: false, status: 'completed' }));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Delivery history' }).querySelectorAll('.delivery-entry')).toHaveLength(2));
    expect(screen.queryByRole('region', { name: 'Next notifications' })).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(s.gets('/api/reminders/r1/occurrences')).toBe(0);
  });

  it('a refused snooze time says why, in the reader\'s language', async () => {
    server({
      'POST /api/reminders': () =>
        json(400, {
          success: false,
          error: {
            code: 'VALIDATION_FAILED',
            message: 'Some fields are invalid.',
            fields: { snooze_until: 'snooze_until must be within 7 days' },
            details: [{ field: 'snooze_until', code: 'too_far', params: { days: 7 } }],
          },
        }),
    });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderDetails(reminder());
    fireEvent.click(await screen.findByRole('button', { name: 'Snooze 10 min' }));
    await waitFor(() => expect(getToasts()).toHaveLength(1));
    expect(getToasts()[0]!.kind).toBe('error');
    expect(getToasts()[0]!.message).not.toBe('That did not work. Please try again.');
    expect(getToasts()[0]!.message).not.toMatch(/snooze_until|must be/);
    expect(getToasts()[0]!.message).toBe('Please choose a time within 7 days.');
  });
});
