// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DAY0, T0, status, statusAllZero, timeline1h, timeline24h } from '../test/metricsFixtures';
import { latest, layoutBars, niceMax, peak, readBuckets, readCount, totals } from './chartData';

const STATUS_KEYS = ['sent', 'failed', 'lateness_p99_ms'] as const;

describe('readCount', () => {
  it('keeps finite non-negative numbers and reads everything else as null', () => {
    expect([0, 3, 412.5].map(readCount)).toEqual([0, 3, 412.5]);
    expect([-1, NaN, Infinity, '3', null, undefined, {}, true].map(readCount)).toEqual([null, null, null, null, null, null, null, null]);
  });
});

describe('readBuckets', () => {
  it('reads the 12 five-minute buckets of timeline_1h, oldest first', () => {
    const rows = readBuckets(status.timeline_1h, STATUS_KEYS)!;
    expect(rows).toHaveLength(12);
    expect(rows[0]).toEqual({ start: T0, values: { sent: 3, failed: 0, lateness_p99_ms: 412 } });
    expect(rows[1]!.values.lateness_p99_ms).toBeNull();
    expect(rows[11]!.start - rows[0]!.start).toBe(55 * 60_000);
  });

  it('is null when the timeline is absent or not an array (an older server)', () => {
    expect(readBuckets(undefined, STATUS_KEYS)).toBeNull();
    expect(readBuckets(null, STATUS_KEYS)).toBeNull();
    expect(readBuckets({ start: 'x' }, STATUS_KEYS)).toBeNull();
    expect(readBuckets([], STATUS_KEYS)).toEqual([]);
  });

  it('skips buckets without a valid start, sorts by start and nulls bad counts', () => {
    const rows = readBuckets(
      [
        { start: '2026-11-21T12:05:00Z', sent: 2, failed: -1, lateness_p99_ms: '9' },
        null,
        'junk',
        { start: 'not a date', sent: 1, failed: 0 },
        { sent: 1, failed: 0 },
        { start: '2026-11-21T12:00:00Z', sent: 1 },
      ],
      STATUS_KEYS,
    )!;
    expect(rows.map((r) => r.start)).toEqual([T0, T0 + 5 * 60_000]);
    expect(rows[0]!.values).toEqual({ sent: 1, failed: null, lateness_p99_ms: null });
    expect(rows[1]!.values).toEqual({ sent: 2, failed: null, lateness_p99_ms: null });
  });

  it('reads the 24 hourly buckets of timeline_24h', () => {
    const rows = readBuckets(timeline24h, ['sent', 'failed'])!;
    expect(rows).toHaveLength(24);
    expect(rows[0]!.start).toBe(DAY0);
    expect(rows[23]!.start).toBe(DAY0 + 23 * 3_600_000);
  });
});

describe('niceMax', () => {
  it('rounds up to 1, 1.5, 2, 3, 4, 5, 6, 8 × 10^k', () => {
    expect([1, 2, 3, 7, 9, 11, 12, 133, 412, 1234, 2500, 0.3].map(niceMax)).toEqual([1, 2, 3, 8, 10, 15, 15, 150, 500, 1500, 3000, 0.3]);
  });
  it('is 0 for nothing to draw', () => {
    expect([0, -5, NaN, Infinity].map(niceMax)).toEqual([0, 0, 0, 0]);
  });
});

describe('layoutBars', () => {
  const rows = readBuckets(timeline1h, STATUS_KEYS)!;

  it('stacks sent then failed on one scale set by the tallest stack', () => {
    const l = layoutBars(rows, ['sent', 'failed'], { slot: 10, height: 100, gap: 0.2, minHeight: 2 });
    expect(l.width).toBe(120);
    expect(l.max).toBe(15); // tallest stack 12 + 0 -> 15
    expect(l.empty).toBe(false);
    expect(l.bars).toHaveLength(12);
    // bucket 3: 12 sent, no failure
    const b3 = l.bars[3]!;
    expect(b3.x).toBeCloseTo(31);
    expect(b3.width).toBeCloseTo(8);
    expect(b3.segments).toEqual([{ key: 'sent', value: 12, y: 20, height: 80 }]);
    // bucket 4: 7 sent then 2 failed on top
    const [sent, failed] = l.bars[4]!.segments;
    expect(sent).toMatchObject({ key: 'sent', value: 7 });
    expect(sent!.height).toBeCloseTo((7 / 15) * 100);
    expect(failed).toMatchObject({ key: 'failed', value: 2 });
    expect(failed!.height).toBeCloseTo((2 / 15) * 100);
    expect(failed!.y + failed!.height).toBeCloseTo(sent!.y);
    // a zero bucket draws nothing but has data
    expect(l.bars[1]!.segments).toEqual([]);
    expect(l.bars[1]!.noData).toBe(false);
  });

  it('never draws a value above 0 thinner than minHeight, and never above the plot', () => {
    const r = readBuckets([{ start: '2026-11-21T12:00:00Z', sent: 1000, failed: 1 }], ['sent', 'failed'])!;
    const [sent, failed] = layoutBars(r, ['sent', 'failed'], { height: 100, minHeight: 2 }).bars[0]!.segments;
    expect(failed!.height).toBe(2);
    expect(sent!.height + failed!.height).toBeLessThanOrEqual(100);
    expect(failed!.y).toBeGreaterThanOrEqual(0);
  });

  it('lateness p99 bars: null buckets draw nothing and are marked as no data', () => {
    const l = layoutBars(rows, ['lateness_p99_ms']);
    expect(l.max).toBe(3000); // 2500 ms -> 3000
    expect(l.bars[10]!.segments[0]!.height).toBeCloseTo((2500 / 3000) * 100);
    expect(l.bars[1]!.segments).toEqual([]);
    expect(l.bars[1]!.noData).toBe(true);
  });

  it('all zeros or all null: an empty chart, no bars, no division by zero', () => {
    const zero = readBuckets(statusAllZero.timeline_1h, STATUS_KEYS)!;
    for (const keys of [['sent', 'failed'], ['lateness_p99_ms']] as const) {
      const l = layoutBars(zero, keys);
      expect(l.empty).toBe(true);
      expect(l.max).toBe(0);
      expect(l.bars.every((b) => b.segments.length === 0)).toBe(true);
    }
    expect(layoutBars([], ['sent'])).toMatchObject({ width: 0, empty: true, bars: [] });
  });
});

describe('summaries', () => {
  const rows = readBuckets(timeline1h, STATUS_KEYS)!;
  it('totals, peak and latest', () => {
    expect(totals(rows, ['sent', 'failed'])).toEqual({ sent: 49, failed: 4 });
    expect(peak(rows, (r) => (r.values.sent ?? 0) + (r.values.failed ?? 0))).toEqual({ start: T0 + 3 * 5 * 60_000, value: 12 });
    expect(peak(rows, (r) => r.values.lateness_p99_ms)).toEqual({ start: T0 + 10 * 5 * 60_000, value: 2500 });
    expect(latest(rows, 'lateness_p99_ms')).toEqual({ start: T0 + 11 * 5 * 60_000, value: 410 });
  });
  it('nothing to report', () => {
    const zero = readBuckets(statusAllZero.timeline_1h, STATUS_KEYS)!;
    expect(peak(zero, (r) => r.values.sent)).toBeNull();
    expect(latest(zero, 'lateness_p99_ms')).toBeNull();
    expect(totals([], ['sent'])).toEqual({ sent: 0 });
  });
});
