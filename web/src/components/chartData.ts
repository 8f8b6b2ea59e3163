/**
 * Pure data reduction for the small SVG charts (BarChart.tsx): server buckets -> sorted,
 * sanitized rows -> bar geometry in viewBox units. No React, no DOM, so it is tested directly.
 *
 * The server's JSON is not trusted to be well formed: a missing timeline, a bucket without a
 * valid `start`, a negative, fractional-string or NaN count must not break the page. Counts that
 * are not finite non-negative numbers read as null ("no data"), never as a fake zero.
 */

/** One bucket: its start (epoch ms) and one value per series key (null = no data). */
export interface BucketRow<K extends string = string> {
  start: number;
  values: Record<K, number | null>;
}

/** A finite, non-negative number, or null for anything else (missing, null, negative, NaN, string). */
export function readCount(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

/**
 * Reads a server timeline: null when it is absent or not an array (an older server), else the
 * buckets that are objects with a parseable `start`, oldest first, with `keys` read by readCount.
 */
export function readBuckets<K extends string>(raw: unknown, keys: readonly K[]): BucketRow<K>[] | null {
  if (!Array.isArray(raw)) return null;
  const rows: BucketRow<K>[] = [];
  for (const item of raw) {
    if (!item || typeof item !== 'object') continue;
    const o = item as Record<string, unknown>;
    const start = typeof o.start === 'string' ? Date.parse(o.start) : NaN;
    if (!Number.isFinite(start)) continue;
    const values = {} as Record<K, number | null>;
    for (const k of keys) values[k] = readCount(o[k]);
    rows.push({ start, values });
  }
  return rows.sort((a, b) => a.start - b.start);
}

const STEPS = [1, 1.5, 2, 3, 4, 5, 6, 8, 10];

/**
 * The top of the value axis: the smallest 1, 1.5, 2, 3, 4, 5, 6, 8 × 10^k that is >= max
 * (integers stay integers from 1 up). 0 for max <= 0 or not finite (an empty chart).
 */
export function niceMax(max: number): number {
  if (!Number.isFinite(max) || max <= 0) return 0;
  const mag = 10 ** Math.floor(Math.log10(max));
  for (const s of STEPS) {
    // round away float noise (0.3 / 0.1 = 2.9999999999999996)
    const v = Number((s * mag).toPrecision(12));
    if (v >= max) return v;
  }
  return 10 * mag;
}

export interface Segment<K extends string = string> {
  key: K;
  value: number;
  /** viewBox units, y grows downward */
  y: number;
  height: number;
}

export interface Bar<K extends string = string> {
  start: number;
  x: number;
  width: number;
  /** bottom to top, only the series with a value > 0 */
  segments: Segment<K>[];
  /** every series of this bucket is null */
  noData: boolean;
}

export interface BarLayout<K extends string = string> {
  width: number;
  height: number;
  /** the value at the top of the plot (niceMax of the tallest stack); 0 when nothing is > 0 */
  max: number;
  bars: Bar<K>[];
  /** no bucket has a value > 0 (no buckets, all zero or all null) */
  empty: boolean;
}

export interface LayoutOptions {
  /** viewBox width of one bucket's slot */
  slot?: number;
  /** viewBox height of the plot */
  height?: number;
  /** fraction of a slot left empty between bars */
  gap?: number;
  /** a value > 0 is never drawn shorter than this, so a single failure among hundreds shows */
  minHeight?: number;
}

/**
 * Stacked bars (series in `keys` order, bottom up) on a shared scale: the tallest stack sets
 * niceMax. Null values draw nothing. The viewBox is `slot * rows.length` wide.
 */
export function layoutBars<K extends string>(rows: readonly BucketRow<K>[], keys: readonly K[], opts: LayoutOptions = {}): BarLayout<K> {
  const slot = opts.slot ?? 10;
  const height = opts.height ?? 100;
  const gap = opts.gap ?? 0.25;
  const minHeight = opts.minHeight ?? 2;
  const stackTotal = (r: BucketRow<K>) => keys.reduce((sum, k) => sum + (r.values[k] ?? 0), 0);
  const tallest = rows.reduce((m, r) => Math.max(m, stackTotal(r)), 0);
  const max = niceMax(tallest);
  const barWidth = slot * (1 - gap);
  const bars = rows.map((r, i): Bar<K> => {
    let top = height;
    const segments: Segment<K>[] = [];
    for (const key of keys) {
      const value = r.values[key];
      if (value === null || value <= 0 || max === 0) continue;
      const h = Math.min(top, Math.max(minHeight, (value / max) * height));
      top -= h;
      segments.push({ key, value, y: top, height: h });
    }
    return {
      start: r.start,
      x: i * slot + (slot - barWidth) / 2,
      width: barWidth,
      segments,
      noData: keys.every((k) => r.values[k] === null),
    };
  });
  return { width: slot * rows.length, height, max, bars, empty: max === 0 };
}

/** The sum of each series over all buckets (nulls count as 0). */
export function totals<K extends string>(rows: readonly BucketRow<K>[], keys: readonly K[]): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const k of keys) out[k] = rows.reduce<number>((s, r) => s + (r.values[k] ?? 0), 0);
  return out;
}

/** The bucket where `value(row)` is highest (the earliest on ties), or null when none is > 0. */
export function peak<K extends string>(rows: readonly BucketRow<K>[], value: (r: BucketRow<K>) => number | null): { start: number; value: number } | null {
  let best: { start: number; value: number } | null = null;
  for (const r of rows) {
    const v = value(r);
    if (v !== null && v > 0 && (!best || v > best.value)) best = { start: r.start, value: v };
  }
  return best;
}

/** The most recent bucket with a value (not null), or null. */
export function latest<K extends string>(rows: readonly BucketRow<K>[], key: K): { start: number; value: number } | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const v = rows[i]!.values[key];
    if (v !== null) return { start: rows[i]!.start, value: v };
  }
  return null;
}
