/**
 * An overdue reminder's card says, beside "Not done yet", how its last ring was delivered, from
 * its delivery log (fetched for overdue reminders only); when the log cannot be loaded it says
 * nothing more, and no error.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearToasts } from '../../../components/toast';
import { resetAuthForTests } from '../../../lib/authStore';
import type { DeliveryLog, Reminder, User } from '../../../lib/types';
import { mockFetch, ok, preloadApp, renderApp } from '../../../test/renderApp';
import { tr } from '../../../test/texts';
import { LAST_DELIVERIES, lastDelivery } from './lastDelivery';

const USER: User = { id: 'u1', email: 'taro@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const PAST = '2025-06-01T00:00:00Z';

function reminder(id: string, title: string, extra: Partial<Reminder> = {}): Reminder {
  return {
    id, user_id: 'u1', title, send_at: PAST, scheduled_at: PAST, timezone: 'Asia/Tokyo', recurrence: { kind: 'none' }, alerts: [{ before_minutes: 0 }],
    overdue: false, is_active: true, is_archived: false, status: 'pending', list_id: 'list-1', assignees: [], rotate: false, break_through: false, created_by: 'u1', created_at: PAST, updated_at: PAST, ...extra,
  };
}

function log(at: string, extra: Partial<DeliveryLog> = {}): DeliveryLog {
  return { id: `l-${at}`, kind: 'occurrence', occurrence_at: at, status: 'sent', late: false, devices: [], ...extra } as DeliveryLog;
}

describe('lastDelivery', () => {
  it('reads the newest ring that went out: shown beats emailed beats sent', () => {
    expect(lastDelivery([])).toBeNull();
    expect(lastDelivery([log('2025-06-01T00:00:00Z', { status: 'shown', shown_at: '2025-06-01T00:00:03Z' })])).toBe('shown');
    // an ack can come after the status was written as sent
    expect(lastDelivery([log('2025-06-01T00:00:00Z', { status: 'sent', shown_at: '2025-06-01T00:00:03Z' })])).toBe('shown');
    expect(lastDelivery([log('2025-06-01T00:00:00Z', { status: 'sent', emailed_at: '2025-06-01T00:05:00Z' })])).toBe('emailed');
    expect(lastDelivery([log('2025-06-01T00:00:00Z', { status: 'no_devices', emailed_at: '2025-06-01T00:00:01Z' })])).toBe('emailed');
    expect(lastDelivery([log('2025-06-01T00:00:00Z')])).toBe('sent');
    expect(lastDelivery([log('2025-06-01T00:00:00Z', { status: 'no_devices' })])).toBe('no_devices');
    expect(lastDelivery([log('2025-06-01T00:00:00Z', { status: 'failed' })])).toBe('failed');
    expect(lastDelivery([log('2025-06-01T00:00:00Z', { status: 'missed' })])).toBe('missed');
  });

  it('the last ring counts, in whatever order the entries come; a queued or cancelled one has not rung', () => {
    const older = log('2025-06-01T00:00:00Z', { status: 'shown', shown_at: '2025-06-01T00:00:03Z' });
    const newer = log('2025-06-01T00:10:00Z', { kind: 'repeat', status: 'failed' });
    expect(lastDelivery([older, newer])).toBe('failed');
    expect(lastDelivery([newer, older])).toBe('failed');
    expect(lastDelivery([log('2025-06-01T00:20:00Z', { kind: 'repeat', status: 'queued' }), older])).toBe('shown');
    expect(lastDelivery([log('2025-06-01T00:20:00Z', { kind: 'repeat', status: 'cancelled' }), older])).toBe('shown');
    expect(lastDelivery([log('2025-06-01T00:20:00Z', { status: 'queued' })])).toBeNull();
  });

  it('every answer has its words in ja and en', () => {
    for (const d of LAST_DELIVERIES) for (const lang of ['ja', 'en'] as const) expect(tr(lang, `reminders:delivery.${d}`)).not.toBe('');
  });
});

describe('the overdue badge says how it was delivered', () => {
  beforeAll(preloadApp, 120_000);
  beforeEach(() => {
    clearToasts();
    resetAuthForTests({ user: USER, status: 'signedIn' });
  });

  const LIST = [reminder('a', 'Take medicine', { overdue: true }), reminder('b', 'Call the bank', { overdue: true }), reminder('c', 'Pay rent', { send_at: '2030-01-01T00:00:00Z', scheduled_at: '2030-01-01T00:00:00Z' })];

  function server(logs: Record<string, () => Response | Promise<Response>>) {
    return mockFetch({
      'GET /api/reminders': () => ok(LIST),
      'GET /api/reminders/a/logs': logs.a ?? (() => ok([])),
      'GET /api/reminders/b/logs': logs.b ?? (() => ok([])),
      'GET /api/reminders/c/logs': logs.c ?? (() => ok([])),
    });
  }
  const card = async (title: string, level: 2 | 3) => (await screen.findByRole('heading', { level, name: title })).closest('li')!;
  const logCalls = (fetch: ReturnType<typeof mockFetch>) =>
    fetch.mock.calls.map(([url]) => String(url)).filter((u) => u.endsWith('/logs')).map((u) => u.split('/')[3]);

  for (const lang of ['ja', 'en'] as const) {
    it(`${lang}: on the reminders page: emailed, no device; nothing fetched or said for one not overdue`, async () => {
      const fetch = server({
        a: () => ok([log('2025-06-01T00:00:00Z', { status: 'no_devices', emailed_at: '2025-06-01T00:00:01Z' })]),
        b: () => ok([log('2025-06-01T00:00:00Z', { status: 'no_devices' })]),
      });
      renderApp(lang === 'ja' ? '/reminders' : '/en/reminders');
      const a = await card('Take medicine', 2);
      const b = await card('Call the bank', 2);
      await waitFor(() => expect(within(a).getByText(tr(lang, 'reminders:delivery.emailed'))).toBeInTheDocument());
      expect(within(a).getByText(tr(lang, 'reminders:overdue'))).toBeInTheDocument();
      await waitFor(() => expect(within(b).getByText(tr(lang, 'reminders:delivery.no_devices'))).toBeInTheDocument());
      // nobody was reached: it is a warning
      expect(within(b).getByText(tr(lang, 'reminders:delivery.no_devices')).closest('.badge')).toHaveClass('warn');
      expect(within(a).getByText(tr(lang, 'reminders:delivery.emailed')).closest('.badge')).not.toHaveClass('warn');
      const c = await card('Pay rent', 2);
      expect(within(c).queryByText(tr(lang, 'reminders:overdue'))).toBeNull();
      expect(logCalls(fetch).sort()).toEqual(['a', 'b']);
    });
  }

  it('ja: on the dashboard too: shown on a device', async () => {
    server({ a: () => ok([log('2025-06-01T00:00:00Z', { status: 'shown', shown_at: '2025-06-01T00:00:02Z' })]) });
    renderApp('/');
    const a = await card('Take medicine', 3);
    await waitFor(() => expect(within(a).getByText('端末に表示済み')).toBeInTheDocument());
    expect(within(a).getByText('未完了')).toBeInTheDocument();
  });

  it('en: when the log cannot be loaded (offline), no delivery word and no error', async () => {
    let asked = 0;
    server({
      a: () => {
        asked++;
        return Promise.reject(new TypeError('Failed to fetch'));
      },
      b: () => ok([log('2025-06-01T00:00:00Z', { status: 'failed' })]),
    });
    renderApp('/en/reminders');
    const a = await card('Take medicine', 2);
    const b = await card('Call the bank', 2);
    await waitFor(() => expect(within(b).getByText('Delivery failed')).toBeInTheDocument());
    await waitFor(() => expect(asked).toBeGreaterThan(0));
    expect(within(a).getByText('Not done yet')).toBeInTheDocument();
    expect(a.querySelectorAll('.badge[data-delivery]')).toHaveLength(0);
    expect(within(a).queryByText(tr('en', 'reminders:details.loadFailed'))).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
