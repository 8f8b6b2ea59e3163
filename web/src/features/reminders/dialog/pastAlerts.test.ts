import { describe, expect, it } from 'vitest';
import { utcToZoned } from '../../../lib/zonedTime';
import { pastAlerts } from './pastAlerts';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const tz = 'Asia/Tokyo';
/** The form's date and time `minutes` from NOW, in Tokyo. */
const at = (minutes: number) => utcToZoned(NOW + minutes * 60_000, tz);

describe('pastAlerts', () => {
  it('a one-time reminder in 30 min: the 1-hour alert has passed, the 10-minute one has not', () => {
    expect(pastAlerts({ ...at(30), timezone: tz, kind: 'none', alerts: [60, 10] }, NOW)).toEqual({ minutes: [60], first: NOW + 30 * 60_000, recurring: false });
  });

  it('an alert whose time is exactly now counts as passed (it cannot ring any more)', () => {
    expect(pastAlerts({ ...at(30), timezone: tz, kind: 'none', alerts: [30] }, NOW)?.minutes).toEqual([30]);
    expect(pastAlerts({ ...at(31), timezone: tz, kind: 'none', alerts: [30] }, NOW)).toBeNull();
  });

  it('none, or no alerts, or an unreadable date: nothing flagged', () => {
    expect(pastAlerts({ ...at(30), timezone: tz, kind: 'none', alerts: [] }, NOW)).toBeNull();
    expect(pastAlerts({ ...at(3000), timezone: tz, kind: 'none', alerts: [1440] }, NOW)).toBeNull();
    expect(pastAlerts({ date: '', time: '', timezone: tz, kind: 'none', alerts: [60] }, NOW)).toBeNull();
  });

  it('a one-time reminder whose time is past: every alert has passed', () => {
    expect(pastAlerts({ ...at(-5), timezone: tz, kind: 'none', alerts: [1440, 5] }, NOW)?.minutes).toEqual([1440, 5]);
  });

  it('repeating: flagged for its first time when that is to come; not when the start itself is past', () => {
    expect(pastAlerts({ ...at(30), timezone: tz, kind: 'daily', alerts: [1440] }, NOW)).toEqual({ minutes: [1440], first: NOW + 30 * 60_000, recurring: true });
    expect(pastAlerts({ ...at(-60), timezone: tz, kind: 'daily', alerts: [1440] }, NOW)).toBeNull();
  });
});
