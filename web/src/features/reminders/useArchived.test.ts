import { describe, expect, it } from 'vitest';
import type { Reminder } from '../../lib/types';
import { archivedCount, hasMoreAfter, totalFrom, type ArchivedPage } from './useArchived';

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i) }) as Reminder);
const page = (n: number, total: number | null): ArchivedPage => ({ items: items(n), total });

describe('pages of archived reminders', () => {
  it('reads X-Total-Count', () => {
    expect(totalFrom('120')).toBe(120);
    expect(totalFrom(' 0 ')).toBe(0);
    expect(totalFrom(null)).toBeNull();
    expect(totalFrom('')).toBeNull();
    expect(totalFrom('-1')).toBeNull();
    expect(totalFrom('12x')).toBeNull();
  });
  it('there is more while the total says so', () => {
    expect(hasMoreAfter(page(50, 120), 0)).toBe(true);
    expect(hasMoreAfter(page(50, 120), 50)).toBe(true);
    expect(hasMoreAfter(page(20, 120), 100)).toBe(false);
    expect(hasMoreAfter(page(50, 50), 0)).toBe(false);
    expect(hasMoreAfter(page(0, 0), 0)).toBe(false);
  });
  it('without a total, a full page may have more after it', () => {
    expect(hasMoreAfter(page(50, null), 0)).toBe(true);
    expect(hasMoreAfter(page(49, null), 0)).toBe(false);
  });
  it('counts by the total, else the first page', () => {
    expect(archivedCount(page(50, 987))).toBe(987);
    expect(archivedCount(page(3, null))).toBe(3);
  });
});
