import { describe, expect, it } from 'vitest';
import { firstBelow, monthRange, monthsOf } from './months.js';
import { takenKeyOf } from './taken-key.js';

const at = (iso: string) => Date.parse(iso);
const keys = (...isos: string[]) => Float64Array.from(isos.map(at));

describe('timeline months', () => {
  const list = keys(
    '2021-01-01T04:30:00Z',
    '2015-03-20T08:00:00Z',
    '2015-03-20T08:00:00Z',
    '2015-03-14T02:00:00Z',
    '2015-03-14T01:00:00Z',
    '2015-03-01T00:00:00Z',
    '2015-02-28T23:59:59.999Z',
    '2012-07-01T12:00:00Z',
  );

  it('groups a descending list into contiguous months and days with their offsets', () => {
    expect(monthsOf(list)).toEqual([
      { month: '2021-01', count: 1, offset: 0, days: [[1, 1]] },
      { month: '2015-03', count: 5, offset: 1, days: [[20, 2], [14, 2], [1, 1]] },
      { month: '2015-02', count: 1, offset: 6, days: [[28, 1]] },
      { month: '2012-07', count: 1, offset: 7, days: [[1, 1]] },
    ]);
    expect(monthsOf(new Float64Array(0))).toEqual([]);
  });

  it('finds where a month runs, and where an empty one would be', () => {
    expect(monthRange(list, '2015-03')).toEqual({ start: 1, end: 6 });
    expect(monthRange(list, '2021-01')).toEqual({ start: 0, end: 1 });
    expect(monthRange(list, '2030-01')).toEqual({ start: 0, end: 0 });
    expect(monthRange(list, '2013-05')).toEqual({ start: 7, end: 7 });
    expect(monthRange(list, '1999-12')).toEqual({ start: 8, end: 8 });
    expect(firstBelow(list, at('2015-03-14T01:30:00Z'), 0)).toBe(4);
  });

  it('sums to the whole list for a million keys over 20 years, quickly enough to make per list', () => {
    const million = new Float64Array(1_000_000);
    const newest = at('2026-01-01T00:00:00Z');
    for (let i = 0; i < million.length; i++) million[i] = newest - i * 631_000; // ~20 years
    const months = monthsOf(million);
    expect(months.reduce((sum, month) => sum + month.count, 0)).toBe(1_000_000);
    expect(months.every((month) => month.days.reduce((sum, [, count]) => sum + count, 0) === month.count)).toBe(true);
    expect(months.length).toBeGreaterThan(239);
  });
});

describe('taken keys', () => {
  const upload = { fileModifiedAt: null, createdAt: '2026-11-24T10:00:00.000Z' };

  it('takes the date taken at its offset, else as UTC', () => {
    expect(takenKeyOf({ takenAt: '2015-03-14T10:00:00', takenOffset: '+09:00', fileDate: null }, upload)).toEqual({
      takenKey: at('2015-03-14T01:00:00Z'),
      dateSource: 'taken',
    });
    expect(takenKeyOf({ takenAt: '2015-03-14T10:00:00', takenOffset: null, fileDate: null }, upload).takenKey).toBe(at('2015-03-14T10:00:00Z'));
    // An offset that is not one is ignored, not trusted.
    expect(takenKeyOf({ takenAt: '2015-03-14T10:00:00', takenOffset: '+99:00', fileDate: null }, upload).takenKey).toBe(at('2015-03-14T10:00:00Z'));
  });

  it("falls back to the file's own date, then the client's, then the upload", () => {
    expect(takenKeyOf({ takenAt: null, takenOffset: null, fileDate: '2010-05-05T05:05:05' }, upload)).toEqual({
      takenKey: at('2010-05-05T05:05:05Z'),
      dateSource: 'file',
    });
    expect(takenKeyOf(undefined, { ...upload, fileModifiedAt: '2012-01-01T00:00:00.000Z' })).toEqual({
      takenKey: at('2012-01-01T00:00:00Z'),
      dateSource: 'file',
    });
    expect(takenKeyOf({ takenAt: '0000-00-00T00:00:00', takenOffset: null, fileDate: null }, upload)).toEqual({
      takenKey: at(upload.createdAt),
      dateSource: 'upload',
    });
    expect(takenKeyOf({ takenAt: '1700-01-01T00:00:00', takenOffset: null, fileDate: null }, upload).dateSource).toBe('upload');
  });
});
