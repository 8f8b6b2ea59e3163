import { describe, expect, it } from 'vitest';
import { offsetMinutes, toRfc3339InZone, utcToZoned, zonedToRfc3339, zonedToUtc } from './zonedTime';

describe('zoned time', () => {
  it('converts Tokyo wall-clock to RFC 3339 with +09:00', () => {
    expect(zonedToRfc3339({ date: '2030-01-02', time: '09:15:30' }, 'Asia/Tokyo')).toBe('2030-01-02T09:15:30+09:00');
    expect(zonedToUtc({ date: '2030-01-02', time: '09:15:30' }, 'Asia/Tokyo')).toBe(Date.UTC(2030, 0, 2, 0, 15, 30));
    expect(offsetMinutes(Date.UTC(2030, 0, 1), 'Asia/Tokyo')).toBe(540);
  });
  it('accepts HH:mm without seconds', () => {
    expect(zonedToRfc3339({ date: '2030-06-01', time: '07:05' }, 'UTC')).toBe('2030-06-01T07:05:00+00:00');
  });
  it('uses the summer/winter offset of New York', () => {
    expect(zonedToRfc3339({ date: '2030-07-01', time: '09:00:00' }, 'America/New_York')).toBe('2030-07-01T09:00:00-04:00');
    expect(zonedToRfc3339({ date: '2030-01-01', time: '09:00:00' }, 'America/New_York')).toBe('2030-01-01T09:00:00-05:00');
  });
  it('moves a time in the spring-forward gap forward by the gap (02:30 -> 03:30)', () => {
    // 2030-03-10 is the US spring-forward day.
    expect(zonedToRfc3339({ date: '2030-03-10', time: '02:30:00' }, 'America/New_York')).toBe('2030-03-10T03:30:00-04:00');
  });
  it('resolves an ambiguous fall-back time to its earlier instant', () => {
    // 2030-11-03 01:30 happens twice in New York; the earlier one is EDT (-04:00).
    expect(zonedToRfc3339({ date: '2030-11-03', time: '01:30:00' }, 'America/New_York')).toBe('2030-11-03T01:30:00-04:00');
  });
  it('round-trips an instant to local parts', () => {
    expect(utcToZoned('2030-01-02T00:15:30Z', 'Asia/Tokyo')).toEqual({ date: '2030-01-02', time: '09:15:30' });
    expect(toRfc3339InZone(Date.UTC(2030, 4, 5, 6, 7, 8), 'Europe/London')).toBe('2030-05-05T07:07:08+01:00');
  });
  it('rejects malformed input', () => {
    expect(() => zonedToUtc({ date: '2030/01/01', time: '09:00' }, 'UTC')).toThrow();
  });
});
