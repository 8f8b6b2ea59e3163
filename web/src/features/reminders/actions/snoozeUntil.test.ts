import { describe, expect, it } from 'vitest';
import { addDays, pickBounds, pickedTime, thisEvening, tomorrowMorning } from './snoozeUntil';

describe('snooze until', () => {
  it('adds days across month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });

  it('this evening in Tokyo: today at 18:00 while ahead, hidden after', () => {
    // 2026-11-25 10:00 in Tokyo (01:00 UTC)
    const morning = Date.UTC(2026, 10, 25, 1, 0);
    expect(thisEvening(morning, 'Asia/Tokyo', '18:00')).toBe('2026-11-25T18:00:00+09:00');
    // 18:30 in Tokyo: past
    expect(thisEvening(Date.UTC(2026, 10, 25, 9, 30), 'Asia/Tokyo', '18:00')).toBeNull();
    // 17:59:30: less than a minute ahead is not offered
    expect(thisEvening(Date.UTC(2026, 10, 25, 8, 59, 30), 'Asia/Tokyo', '18:00')).toBeNull();
  });

  it('uses the settings zone, not UTC: 23:00 UTC is already tomorrow in Tokyo', () => {
    const now = Date.UTC(2026, 10, 25, 23, 0); // 2026-11-26 08:00 Tokyo, 18:00 New York
    expect(tomorrowMorning(now, 'Asia/Tokyo', '08:00')).toBe('2026-11-27T08:00:00+09:00');
    expect(thisEvening(now, 'Asia/Tokyo', '18:00')).toBe('2026-11-26T18:00:00+09:00');
    expect(tomorrowMorning(now, 'America/New_York', '07:30')).toBe('2026-11-26T07:30:00-05:00');
    expect(thisEvening(now, 'America/New_York', '18:00')).toBeNull();
    expect(thisEvening(now, 'America/New_York', '21:00')).toBe('2026-11-25T21:00:00-05:00');
  });

  it('tomorrow morning across a DST change (New York, 1 Nov 2026)', () => {
    const now = Date.UTC(2026, 9, 31, 20, 0); // Sat 16:00 EDT
    expect(tomorrowMorning(now, 'America/New_York', '08:00')).toBe('2026-11-01T08:00:00-05:00');
    expect(Date.parse(tomorrowMorning(now, 'America/New_York', '08:00'))).toBe(Date.UTC(2026, 10, 1, 13, 0));
  });

  it('a picked time is read in the zone and must be ahead and within 7 days', () => {
    const now = Date.UTC(2026, 10, 25, 1, 0); // 10:00 Tokyo
    expect(pickedTime('2026-11-25T12:00', now, 'Asia/Tokyo')).toEqual({ until: '2026-11-25T12:00:00+09:00' });
    expect(pickedTime('2026-11-25T12:00', now, 'America/New_York')).toEqual({ until: '2026-11-25T12:00:00-05:00' });
    expect(pickedTime('', now, 'Asia/Tokyo')).toEqual({ error: 'errors.snoozeTimeRequired' });
    expect(pickedTime('2026-11-25T09:00', now, 'Asia/Tokyo')).toEqual({ error: 'errors.snoozeInPast' });
    expect(pickedTime('2026-12-02T10:00', now, 'Asia/Tokyo')).toEqual({ until: '2026-12-02T10:00:00+09:00' });
    expect(pickedTime('2026-12-02T10:01', now, 'Asia/Tokyo')).toEqual({ error: 'errors.snoozeTooFar' });
    expect(pickBounds(now, 'Asia/Tokyo')).toEqual({ min: '2026-11-25T10:00', max: '2026-12-02T10:00' });
  });
});
