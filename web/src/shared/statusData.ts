/**
 * GET /api/status and GET /api/admin/stats, read defensively: any field may be missing (an older
 * or newer server), so every figure is a number or null ("not reported"), timelines are null
 * when absent, and fields this app does not know are kept apart to be listed as they are.
 */
import { readBuckets, readCount, type BucketRow } from '../components/chartData';

export const STATUS_BUCKET_MS = 5 * 60_000;
export const ADMIN_BUCKET_MS = 60 * 60_000;

export const STATUS_SERIES = ['sent', 'failed', 'lateness_p99_ms'] as const;
export type StatusSeries = (typeof STATUS_SERIES)[number];
export const ADMIN_SERIES = ['sent', 'failed'] as const;
export type AdminSeries = (typeof ADMIN_SERIES)[number];

export interface Counts {
  sent: number | null;
  failed: number | null;
}

export interface StatusView {
  /** epoch ms of the scheduler's last tick; null when not reported (no scheduler in this process) */
  lastTick: number | null;
  lateness: { p50: number | null; p95: number | null; p99: number | null; max: number | null };
  /** null when the server could not read it (-1) or did not say */
  queueDepth: number | null;
  deliveries5m: Counts;
  deliveries1h: Counts;
  /** 5-minute buckets, oldest first; null when the server has no timeline_1h */
  timeline: BucketRow<StatusSeries>[] | null;
  /** the last date of the shipped Japanese holiday table (YYYY-MM-DD), and whether it runs out soon */
  holidaysUntil: string | null;
  holidays: 'ok' | 'expiring' | 'expired' | null;
  /** each kind of channel: on or off here, and its sends in the last hour */
  channels: ChannelHealthRow[];
  /** fields this page does not know, shown as they are */
  extra: Record<string, unknown>;
}

export interface ChannelHealthRow {
  kind: 'ntfy' | 'webhook' | 'telegram' | 'line';
  status: 'off' | 'idle' | 'ok' | 'failing';
  sent: number;
  failed: number;
}

const CHANNEL_KINDS = ['ntfy', 'webhook', 'telegram', 'line'] as const;
const CHANNEL_STATES = ['off', 'idle', 'ok', 'failing'] as const;

function readChannels(raw: unknown): ChannelHealthRow[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item) => {
    const o = asObject(item);
    const kind = CHANNEL_KINDS.find((k) => k === o.kind);
    const status = CHANNEL_STATES.find((s) => s === o.status);
    return kind && status ? [{ kind, status, sent: readCount(o.sent_1h) ?? 0, failed: readCount(o.failed_1h) ?? 0 }] : [];
  });
}

export interface AdminView {
  users: number | null;
  activeReminders: number | null;
  deliveries24h: number | null;
  failures24h: number | null;
  queueDepth: number | null;
  /** hourly buckets, oldest first; null when the server has no timeline_24h */
  timeline: BucketRow<AdminSeries>[] | null;
  extra: Record<string, unknown>;
}

const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function counts(v: unknown): Counts {
  const o = asObject(v);
  return { sent: readCount(o.sent), failed: readCount(o.failed) };
}

function pick(o: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !known.includes(k)));
}

const STATUS_KNOWN = ['scheduler_last_tick', 'lateness_1h', 'queue_depth', 'deliveries_5m', 'deliveries_1h', 'timeline_1h', 'holidays_until', 'holidays', 'channels'];
const HOLIDAY_STATES = ['ok', 'expiring', 'expired'] as const;
const ADMIN_KNOWN = ['users', 'active_reminders', 'deliveries_24h', 'failures_24h', 'queue_depth', 'timeline_24h'];

export function readServerStatus(raw: unknown): StatusView {
  const o = asObject(raw);
  const tick = typeof o.scheduler_last_tick === 'string' ? Date.parse(o.scheduler_last_tick) : NaN;
  const l = asObject(o.lateness_1h);
  return {
    lastTick: Number.isFinite(tick) ? tick : null,
    lateness: { p50: readCount(l.p50_ms), p95: readCount(l.p95_ms), p99: readCount(l.p99_ms), max: readCount(l.max_ms) },
    queueDepth: readCount(o.queue_depth),
    deliveries5m: counts(o.deliveries_5m),
    deliveries1h: counts(o.deliveries_1h),
    timeline: readBuckets(o.timeline_1h, STATUS_SERIES),
    holidaysUntil: typeof o.holidays_until === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(o.holidays_until) ? o.holidays_until : null,
    holidays: HOLIDAY_STATES.find((s) => s === o.holidays) ?? null,
    channels: readChannels(o.channels),
    extra: pick(o, STATUS_KNOWN),
  };
}

export function readAdminStats(raw: unknown): AdminView {
  const o = asObject(raw);
  return {
    users: readCount(o.users),
    activeReminders: readCount(o.active_reminders),
    deliveries24h: readCount(o.deliveries_24h),
    failures24h: readCount(o.failures_24h),
    queueDepth: readCount(o.queue_depth),
    timeline: readBuckets(o.timeline_24h, ADMIN_SERIES),
    extra: pick(o, ADMIN_KNOWN),
  };
}

const LOCALES = { ja: 'ja-JP', en: 'en-US' } as const;

/** Number, duration and time formatting for the figures and charts, in the page's language. */
export function metricFormat(lang: 'ja' | 'en', timeZone?: string) {
  const locale = LOCALES[lang];
  const int = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const unit = (u: string, digits: number) => new Intl.NumberFormat(locale, { style: 'unit', unit: u, unitDisplay: 'short', maximumFractionDigits: digits });
  const ms = unit('millisecond', 0);
  const sec = unit('second', 2);
  const sec1 = unit('second', 1);
  const min = unit('minute', 1);
  const hm = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', ...(timeZone ? { timeZone } : {}) });
  const hms = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', ...(timeZone ? { timeZone } : {}) });
  const rel = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  return {
    count: (n: number) => int.format(n),
    /** 412 ms, 1.23 s, 12.3 s, 2.5 min */
    duration: (n: number) => (n < 1000 ? ms.format(n) : n < 10_000 ? sec.format(n / 1000) : n < 60_000 ? sec1.format(n / 1000) : min.format(n / 60_000)),
    /** 13:05 */
    time: (t: number) => hm.format(t),
    /** 13:05:09 */
    timeSeconds: (t: number) => hms.format(t),
    /** "3 sec. ago" / "3 秒前", from `now` */
    ago: (t: number, now: number) => {
      const s = Math.round((t - now) / 1000);
      return Math.abs(s) < 60 ? rel.format(Math.min(0, s), 'second') : Math.abs(s) < 3600 ? rel.format(Math.round(s / 60), 'minute') : rel.format(Math.round(s / 3600), 'hour');
    },
  };
}

export type MetricFormat = ReturnType<typeof metricFormat>;
