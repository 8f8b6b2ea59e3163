/**
 * Wall-clock time in an IANA timezone <-> UTC instants, with the DST rules of decisions.md:
 * a local time in a spring-forward gap moves forward by the gap's length (02:30 -> 03:30);
 * an ambiguous local time (fall back) resolves to its earlier instant.
 */
export interface LocalParts {
  date: string; // YYYY-MM-DD
  time: string; // HH:mm:ss
}

const dtfCache = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = dtfCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    dtfCache.set(tz, f);
  }
  return f;
}

function wallClock(utcMs: number, tz: string): [number, number, number, number, number, number] {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(utcMs))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return [parts.year ?? 0, parts.month ?? 1, parts.day ?? 1, (parts.hour ?? 0) % 24, parts.minute ?? 0, parts.second ?? 0];
}

/** Offset of `tz` from UTC at the instant, in minutes (Tokyo: +540). */
export function offsetMinutes(utcMs: number, tz: string): number {
  const whole = Math.floor(utcMs / 1000) * 1000;
  const [y, mo, d, h, mi, s] = wallClock(whole, tz);
  return Math.round((Date.UTC(y, mo - 1, d, h, mi, s) - whole) / 60_000);
}

export function isValidTimeZone(tz: string): boolean {
  try {
    formatter(tz);
    return true;
  } catch {
    return false;
  }
}

function parseLocal(p: LocalParts): number {
  const dm = /^(\d{4})-(\d{2})-(\d{2})$/.exec(p.date);
  const tm = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(p.time);
  if (!dm || !tm) throw new Error('Invalid date or time');
  return Date.UTC(+dm[1]!, +dm[2]! - 1, +dm[3]!, +tm[1]!, +tm[2]!, +(tm[3] ?? 0));
}

/** The UTC instant (ms) of a wall-clock time in `tz`. */
export function zonedToUtc(p: LocalParts, tz: string): number {
  const local = parseLocal(p);
  const DAY = 86_400_000;
  const before = offsetMinutes(local - DAY, tz);
  const after = offsetMinutes(local + DAY, tz);
  const candidates = [...new Set([before, after])]
    .map((o) => local - o * 60_000)
    .filter((utc) => offsetMinutes(utc, tz) * 60_000 === local - utc);
  if (candidates.length > 0) return Math.min(...candidates);
  // Spring-forward gap: use the offset in force before the change (moves forward by the gap).
  return local - before * 60_000;
}

function pad(n: number, w = 2): string {
  return String(Math.abs(n)).padStart(w, '0');
}

/** RFC 3339 with the zone's offset at that instant: 2030-01-01T09:00:00+09:00 */
export function toRfc3339InZone(utcMs: number, tz: string): string {
  const off = offsetMinutes(utcMs, tz);
  const [y, mo, d, h, mi, s] = wallClock(utcMs, tz);
  const sign = off >= 0 ? '+' : '-';
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${sign}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
}

export function zonedToRfc3339(p: LocalParts, tz: string): string {
  return toRfc3339InZone(zonedToUtc(p, tz), tz);
}

/** Wall-clock parts of an instant in `tz` (for editing a stored reminder). */
export function utcToZoned(iso: string | number, tz: string): LocalParts {
  const ms = typeof iso === 'number' ? iso : Date.parse(iso);
  const [y, mo, d, h, mi, s] = wallClock(ms, tz);
  return { date: `${pad(y, 4)}-${pad(mo)}-${pad(d)}`, time: `${pad(h)}:${pad(mi)}:${pad(s)}` };
}

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
