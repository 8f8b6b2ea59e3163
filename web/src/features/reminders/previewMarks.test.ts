import { describe, expect, it } from 'vitest';
import { markPreview, needsPlainPreview } from './previewMarks';

// Monthly on the 2nd Monday from December 2026, 09:00 Tokyo (answers of the real server).
const PLAIN = ['2026-12-14T00:00:00Z', '2027-01-11T00:00:00Z', '2027-02-08T00:00:00Z', '2027-03-08T00:00:00Z', '2027-04-12T00:00:00Z'];
const tz = 'Asia/Tokyo';

describe('markPreview', () => {
  it('needs the plain list only with a holiday rule or skipped dates', () => {
    expect(needsPlainPreview('ignore', [])).toBe(false);
    expect(needsPlainPreview('skip', [])).toBe(true);
    expect(needsPlainPreview('ignore', ['2027-01-01'])).toBe(true);
  });

  it('without the plain list nothing is marked', () => {
    expect(markPreview(PLAIN, null, { skip: [], holidays: 'ignore', timezone: tz, complete: false }).every((r) => r.mark === null)).toBe(true);
  });

  it('marks an occurrence moved to the next business day (Coming of Age Day, 11 Jan 2027)', () => {
    const actual = [...PLAIN];
    actual[1] = '2027-01-12T00:00:00Z';
    const rows = markPreview(actual, PLAIN, { skip: [], holidays: 'next_business_day', timezone: tz, complete: false });
    expect(rows.map((r) => r.mark)).toEqual([null, 'moved', null, null, null]);
  });

  it('lists skipped dates and holidays dropped by "skip", in time order', () => {
    const actual = ['2026-12-14T00:00:00Z', '2027-02-08T00:00:00Z', '2027-04-12T00:00:00Z'];
    const rows = markPreview(actual, PLAIN, { skip: ['2027-03-08'], holidays: 'skip', timezone: tz, complete: true });
    expect(rows).toEqual([
      { iso: '2026-12-14T00:00:00Z', mark: null },
      { iso: '2027-01-11T00:00:00Z', mark: 'holiday' },
      { iso: '2027-02-08T00:00:00Z', mark: null },
      { iso: '2027-03-08T00:00:00Z', mark: 'skipped' },
      { iso: '2027-04-12T00:00:00Z', mark: null },
    ]);
  });

  it('lists no dropped date after the last shown occurrence while the series goes on', () => {
    const rows = markPreview(['2026-12-14T00:00:00Z'], PLAIN, { skip: ['2027-03-08'], holidays: 'ignore', timezone: tz, complete: false });
    expect(rows).toEqual([{ iso: '2026-12-14T00:00:00Z', mark: null }]);
  });
});
