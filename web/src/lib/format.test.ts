import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime } from './format';

describe('format', () => {
  it('formats in the reminder time zone for both languages', () => {
    const iso = '2030-01-02T00:00:05Z';
    expect(formatTime(iso, 'ja', 'Asia/Tokyo')).toBe('9:00:05');
    expect(formatDate(iso, 'en', 'Asia/Tokyo')).toBe('Jan 2, 2030');
    expect(formatDateTime(iso, 'en', 'Asia/Tokyo')).toContain('09:00:05');
    expect(formatDateTime(iso, 'ja', 'Asia/Tokyo')).toContain('2030');
  });
});
