import { describe, expect, it } from 'vitest';
import { markPreview, needsPlainPreview, upcomingRows, type PreviewRow } from './previewMarks';

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

describe('upcomingRows: never a past instant', () => {
  const NOW = Date.parse('2027-01-20T00:00:00Z');
  const row = (iso: string, mark: PreviewRow['mark'] = null): PreviewRow => ({ iso, mark });

  it('leaves out the past ones and counts them; keeps the first `limit` to come', () => {
    const rows = ['2027-01-18', '2027-01-19', '2027-01-20', '2027-01-21', '2027-01-22', '2027-01-23'].map((d) => row(`${d}T00:00:00Z`));
    const up = upcomingRows(rows, NOW, 2, false);
    expect(up.rows.map((r) => r.iso)).toEqual(['2027-01-20T00:00:00Z', '2027-01-21T00:00:00Z']);
    expect(up.passed).toBe(2);
    expect(up.ended).toBe(false);
  });

  it('a dropped (skipped) date is not counted as passed, and is listed only up to the last shown occurrence', () => {
    const rows = [row('2027-01-19T00:00:00Z', 'skipped'), row('2027-01-21T00:00:00Z'), row('2027-01-22T00:00:00Z', 'skipped'), row('2027-01-23T00:00:00Z'), row('2027-01-24T00:00:00Z', 'holiday'), row('2027-01-25T00:00:00Z')];
    const up = upcomingRows(rows, NOW, 2, false);
    expect(up.rows).toEqual([row('2027-01-21T00:00:00Z'), row('2027-01-22T00:00:00Z', 'skipped'), row('2027-01-23T00:00:00Z')]);
    expect(up.passed).toBe(0);
  });

  it('all past: nothing listed; ended when the series was complete, else it did not reach now', () => {
    const rows = [row('2027-01-18T00:00:00Z'), row('2027-01-19T00:00:00Z')];
    expect(upcomingRows(rows, NOW, 5, true)).toEqual({ rows: [], passed: 2, ended: true });
    expect(upcomingRows(rows, NOW, 5, false)).toEqual({ rows: [], passed: 2, ended: false });
  });

  it('a start to come: all listed as before', () => {
    const rows = [row('2027-02-01T00:00:00Z'), row('2027-02-02T00:00:00Z', 'moved')];
    expect(upcomingRows(rows, NOW, 5, true)).toEqual({ rows, passed: 0, ended: false });
  });
});
