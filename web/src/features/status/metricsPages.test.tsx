/**
 * The /status and /admin/dashboard pages with the server's answers (fixtures shaped as
 * GET /api/status and GET /api/admin/stats): figures, charts and their accessible summaries,
 * and an older server without the timelines.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { resetAuthForTests } from '../../lib/authStore';
import type { User } from '../../lib/types';
import { metricFormat } from '../../shared/statusData';
import {
  DAY0,
  T0,
  adminStats,
  adminStatsWithoutTimeline,
  status,
  statusAllZero,
  statusWithoutTimeline,
} from '../../test/metricsFixtures';
import { json, mockFetch, ok, renderApp } from '../../test/renderApp';

const USER: User = { id: 'u1', email: 'admin@example.com', is_active: true, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z' };
const en = metricFormat('en');
const ja = metricFormat('ja');
const FIVE_MIN = 5 * 60_000;

/** The figure whose label is `label`: its value text. */
function figure(label: string): string {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.parentElement!.querySelector('.figure-value')!.textContent!;
}

describe('/status', () => {
  beforeEach(() => resetAuthForTests({ status: 'signedOut' }));

  it('ja and en: each kind of channel says whether it is on here and how its last hour went', async () => {
    const channels = [
      { kind: 'ntfy', status: 'ok', sent_1h: 12, failed_1h: 1 },
      { kind: 'webhook', status: 'failing', sent_1h: 1, failed_1h: 5 },
      { kind: 'telegram', status: 'off', sent_1h: 0, failed_1h: 0 },
      { kind: 'line', status: 'idle', sent_1h: 0, failed_1h: 0 },
    ];
    mockFetch({ 'GET /api/status': () => ok({ ...status, channels }) });
    const { container, unmount } = renderApp('/en/status');
    await screen.findByRole('heading', { level: 3, name: 'Channels' });
    const row = (kind: string) => container.querySelector(`[data-channel="${kind}"]`)!.textContent;
    expect(row('ntfy')).toBe('ntfyWorking · last hour: 12 sent, 1 failed');
    expect(row('webhook')).toBe('WebhooksMost sends in the last hour failed · last hour: 1 sent, 5 failed');
    expect(row('telegram')).toBe('TelegramNot enabled on this server');
    expect(container.querySelector('[data-channel="webhook"] .dot-error')).not.toBeNull();
    expect(screen.queryByText(/"channels"/)).toBeNull();
    unmount();
    const ja = renderApp('/status');
    await screen.findByRole('heading', { level: 3, name: '通知チャンネル' });
    expect(ja.container.querySelector('[data-channel="line"]')!.textContent).toBe('LINE直近1時間の送信なし');
  });

  it('en: the figures and both per-5-minute charts with their summaries', async () => {
    mockFetch({ 'GET /api/status': () => ok(status) });
    const { container } = renderApp('/en/status');
    const deliveries = await screen.findByRole('img', {
      name: `Deliveries per 5 minutes over the last hour: 49 sent and 4 failed in total; the busiest 5 minutes began at ${en.time(T0 + 3 * FIVE_MIN)} (12).`,
    });
    expect(deliveries.querySelectorAll('rect.chart-sent')).toHaveLength(9);
    expect(deliveries.querySelectorAll('rect.chart-failed')).toHaveLength(3);
    const lateness = screen.getByRole('img', {
      name: `Delivery lateness (99th percentile) per 5 minutes over the last hour: highest 2.5 sec (from ${en.time(T0 + 10 * FIVE_MIN)}), latest 410 ms (from ${en.time(T0 + 11 * FIVE_MIN)}).`,
    });
    expect(lateness.querySelectorAll('rect.chart-lateness')).toHaveLength(9);
    expect(screen.getByRole('figure', { name: 'Sent and failed' })).toContainElement(deliveries);
    expect(screen.getByRole('figure', { name: 'Delivery lateness' })).toContainElement(lateness);
    expect(screen.getByRole('heading', { level: 3, name: 'Last hour, per 5 minutes' })).toBeInTheDocument();

    expect(figure('Queue depth')).toBe('4');
    expect(figure('Sent (5 min)')).toBe('6');
    expect(figure('Failed (5 min)')).toBe('0');
    expect(figure('Sent (1 h)')).toBe('49');
    expect(figure('Failed (1 h)')).toBe('4');
    expect(figure('Lateness p50 (1 h)')).toBe('310 ms');
    expect(figure('Lateness p95 (1 h)')).toBe('1.7 sec');
    expect(figure('Lateness p99 (1 h)')).toBe('2.4 sec');
    expect(figure('Lateness max (1 h)')).toBe('2.51 sec');
    expect(figure('Scheduler last tick')).toBe(en.timeSeconds(Date.parse('2026-11-21T12:59:58Z')));
    // failures are coloured
    expect(container.querySelector('[data-figure="failed1h"] .figure-value')).toHaveClass('danger');
    expect(container.querySelector('[data-figure="failed5m"] .figure-value')).not.toHaveClass('danger');
    // the data as tables
    const tables = container.querySelectorAll('.chart-table');
    expect(tables).toHaveLength(2);
    fireEvent.click(within(tables[1] as HTMLElement).getByText('Show as table'));
    const rows = within(tables[1] as HTMLElement).getAllByRole('row');
    expect(rows).toHaveLength(13);
    expect(rows[11]!.textContent).toBe(`${en.time(T0 + 10 * FIVE_MIN)}–${en.time(T0 + 11 * FIVE_MIN)}2.5 sec`);
    // nothing unknown left over
    expect(screen.queryByText('Other figures')).toBeNull();
  });

  it('ja: the same page in Japanese', async () => {
    mockFetch({ 'GET /api/status': () => ok(status) });
    renderApp('/status');
    expect(
      await screen.findByRole('img', {
        name: `直近1時間の5分ごとの配信：合計で送信 49 件、失敗 4 件。最も多かったのは ${ja.time(T0 + 3 * FIVE_MIN)} からの5分間（12 件）。`,
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: '配信の遅延' })).toBeInTheDocument();
    expect(figure('キューの長さ')).toBe('4');
    expect(figure('遅延 p99（1時間）')).toBe('2.4 秒');
    expect(screen.getAllByText('表で表示')).toHaveLength(2);
  });

  it('the holiday table: its last date, and a warning in both languages when it runs out soon', async () => {
    // In 2026 a date of 2026 shows no year. Only Date is faked.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-11-24T03:00:00Z') });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    mockFetch({ 'GET /api/status': () => ok({ ...status, holidays_until: '2030-12-31', holidays: 'ok' }) });
    const { unmount } = renderApp('/en/status');
    await waitFor(() => expect(figure('Holiday table covers until')).toBe('Dec 31, 2030'));
    expect(screen.getByText('Japanese public holidays are known until this date')).toBeInTheDocument();
    expect(screen.queryByText('holidays_until')).toBeNull();
    unmount();
    mockFetch({ 'GET /api/status': () => ok({ ...status, holidays_until: '2026-12-31', holidays: 'expiring' }) });
    renderApp('/status');
    await waitFor(() => expect(figure('祝日表の収録期限')).toBe('12月31日'));
    expect(screen.getByText('90日以内に期限切れになります。Hibiki を更新してください')).toBeInTheDocument();
    expect(screen.queryByText('expiring')).toBeNull();
  });

  it('an older server without timeline_1h: the figures, no charts, unknown fields listed', async () => {
    mockFetch({ 'GET /api/status': () => ok({ ...statusWithoutTimeline, wheel_size: 17 }) });
    renderApp('/en/status');
    await waitFor(() => expect(figure('Sent (1 h)')).toBe('49'));
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('figure')).toBeNull();
    expect(screen.getByText('Other figures')).toBeInTheDocument();
    expect(screen.getByText('wheel_size').nextElementSibling).toHaveTextContent('17');
  });

  it('a quiet hour (all zero), no scheduler tick and an unreadable queue', async () => {
    mockFetch({ 'GET /api/status': () => ok(statusAllZero) });
    const { container } = renderApp('/en/status');
    expect(await screen.findByRole('img', { name: 'No deliveries in the last hour.' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'No lateness figures for the last hour: nothing was delivered.' })).toBeInTheDocument();
    expect(container.querySelectorAll('rect.chart-bar')).toHaveLength(0);
    expect(screen.getAllByText('No deliveries in the last hour', { selector: '.chart-empty' })).toHaveLength(2);
    expect(figure('Queue depth')).toBe('Unknown');
    expect(figure('Scheduler last tick')).toBe('Not reported');
    expect(figure('Lateness p99 (1 h)')).toBe('—');
  });

  it('a bare or broken answer still renders the figures as "—"', async () => {
    mockFetch({ 'GET /api/status': () => ok({ deliveries_5m: 'x', lateness_1h: null, timeline_1h: 'nope' }) });
    renderApp('/en/status');
    await waitFor(() => expect(figure('Sent (5 min)')).toBe('—'));
    expect(figure('Lateness max (1 h)')).toBe('—');
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('says so when the server status cannot be loaded', async () => {
    mockFetch({ 'GET /api/status': () => json(500, { success: false, error: { code: 'INTERNAL', message: 'x' } }) });
    renderApp('/en/status');
    expect(await screen.findByText('Could not load the server status.')).toBeInTheDocument();
  });
});

describe('/admin/dashboard', () => {
  beforeEach(() => resetAuthForTests({ user: USER, status: 'signedIn', isAdmin: true }));
  const session = () => ok({ user: USER, is_admin: true });
  const sent = adminStats.timeline_24h!.reduce((s, b) => s + b.sent, 0);
  const failed = adminStats.timeline_24h!.reduce((s, b) => s + b.failed, 0);

  it('en: the figures as cards and deliveries and failures per hour', async () => {
    mockFetch({ 'GET /api/auth/session': session, 'GET /api/admin/stats': () => ok(adminStats) });
    const { container } = renderApp('/en/admin/dashboard');
    const chart = await screen.findByRole('img', {
      name: `Deliveries per hour over the last 24 hours: ${en.count(sent)} sent and ${failed} failed in total; the busiest hour began at ${en.time(DAY0 + 9 * 3_600_000)} (133).`,
    });
    expect(chart).toHaveAttribute('viewBox', '0 0 240 100');
    expect(chart.querySelectorAll('rect.chart-failed')).toHaveLength(5);
    expect(screen.getByRole('figure', { name: 'Deliveries and failures' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Last 24 hours, per hour' })).toBeInTheDocument();
    expect(figure('Users')).toBe('42');
    expect(figure('Active reminders')).toBe('317');
    expect(figure('Deliveries (24 h)')).toBe(en.count(sent));
    expect(figure('Failures (24 h)')).toBe(String(failed));
    expect(figure('Queue depth')).toBe('0');
    expect(container.querySelector('.chart-ymax')).toHaveTextContent('150');
    fireEvent.click(screen.getByText('Show as table'));
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(25);
  });

  it('ja: the same in Japanese', async () => {
    mockFetch({ 'GET /api/auth/session': session, 'GET /api/admin/stats': () => ok(adminStats) });
    renderApp('/admin/dashboard');
    expect(await screen.findByRole('figure', { name: '配信と失敗' })).toBeInTheDocument();
    expect(figure('ユーザー数')).toBe('42');
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(/^直近24時間の1時間ごとの配信：合計で送信/);
  });

  it('an older server without timeline_24h: cards only', async () => {
    mockFetch({ 'GET /api/auth/session': session, 'GET /api/admin/stats': () => ok(adminStatsWithoutTimeline) });
    renderApp('/en/admin/dashboard');
    await waitFor(() => expect(figure('Active reminders')).toBe('317'));
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('heading', { level: 3, name: 'Last 24 hours, per hour' })).toBeNull();
    expect(screen.queryByText('Other figures')).toBeNull();
  });

  it('not an admin: the forbidden message', async () => {
    mockFetch({
      'GET /api/auth/session': session,
      'GET /api/admin/stats': () => json(403, { success: false, error: { code: 'FORBIDDEN', message: 'no' } }),
    });
    renderApp('/en/admin/dashboard');
    expect(await screen.findByText('This page is for administrators only.')).toBeInTheDocument();
    // the server refused: no admin links either
    expect(screen.queryByRole('link', { name: 'Users' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Test email' })).toBeNull();
  });
});
