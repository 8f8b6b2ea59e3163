/**
 * Fixtures shaped exactly like the server's answers: GET /api/status `data` (with timeline_1h,
 * 12 buckets of 5 minutes, oldest first) and GET /api/admin/stats `data` (with timeline_24h,
 * 24 hourly buckets, oldest first), plus their older-server and all-zero variants. Partial: they
 * are answers as servers of other versions give them too (without the holiday table's fields,
 * without timelines), which the pages read through `readServerStatus` / `readAdminStats`.
 */
import type { AdminStats, ServerStatus, TimelineBucket } from '../lib/types';

export const T0 = Date.parse('2026-11-21T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** sent, failed, lateness_p99_ms per bucket (12 buckets from 12:00Z) */
const STATUS_ROWS: [number, number, number | null][] = [
  [3, 0, 412],
  [0, 0, null],
  [5, 1, 380],
  [12, 0, 950],
  [7, 2, 1830],
  [0, 0, null],
  [1, 0, 120],
  [9, 0, 640],
  [4, 0, 300],
  [0, 0, null],
  [2, 1, 2500],
  [6, 0, 410],
];

export const timeline1h: TimelineBucket[] = STATUS_ROWS.map(([sent, failed, p99], i) => ({
  start: iso(T0 + i * 5 * 60_000),
  sent,
  failed,
  lateness_p99_ms: p99,
}));

export const status: Partial<ServerStatus> = {
  scheduler_last_tick: '2026-11-21T12:59:58Z',
  lateness_1h: { p50_ms: 310, p95_ms: 1700, p99_ms: 2400, max_ms: 2511 },
  queue_depth: 4,
  deliveries_5m: { sent: 6, failed: 0 },
  deliveries_1h: { sent: 49, failed: 4 },
  timeline_1h: timeline1h,
};

/** An older server: no timeline_1h. */
export const statusWithoutTimeline: Partial<ServerStatus> = (() => {
  const { timeline_1h: _t, ...rest } = status;
  void _t;
  return rest;
})();

/** A quiet hour: every bucket zero (lateness null: nothing was delivered), queue unknown. */
export const statusAllZero: Partial<ServerStatus> = {
  scheduler_last_tick: null,
  lateness_1h: { p50_ms: null, p95_ms: null, p99_ms: null, max_ms: null },
  queue_depth: -1,
  deliveries_5m: { sent: 0, failed: 0 },
  deliveries_1h: { sent: 0, failed: 0 },
  timeline_1h: timeline1h.map((b) => ({ ...b, sent: 0, failed: 0, lateness_p99_ms: null })),
};

export const DAY0 = Date.parse('2026-11-20T13:00:00Z');

export const timeline24h: TimelineBucket[] = Array.from({ length: 24 }, (_, i) => ({
  start: iso(DAY0 + i * 3_600_000),
  sent: i === 9 ? 130 : (i * 7) % 40,
  failed: i === 9 ? 3 : i % 6 === 0 ? 1 : 0,
}));

export const adminStats: AdminStats = {
  users: 42,
  active_reminders: 317,
  deliveries_24h: timeline24h.reduce((s, b) => s + b.sent, 0),
  failures_24h: timeline24h.reduce((s, b) => s + b.failed, 0),
  queue_depth: 0,
  timeline_24h: timeline24h,
};

export const adminStatsWithoutTimeline: Partial<AdminStats> = {
  users: 42,
  active_reminders: 317,
  deliveries_24h: 0,
  failures_24h: 0,
  queue_depth: 0,
};
