import { describe, expect, it } from 'vitest';
import {
  anchorAt,
  buildLayout,
  DAY_END_PX,
  DAY_HEADER_PX,
  geometryFor,
  itemsBetween,
  monthIndexAt,
  MONTH_HEADER_PX,
  pagesBetween,
  pagesToLoad,
  resolveAnchor,
  type DayCounts,
} from './layout';

const wide = geometryFor(1024); // 5 columns of ~202px
const bucket = (month: string, days: DayCounts) => ({ month, days });

describe('geometryFor', () => {
  it('fits columns of about 200px (120px on a phone), square rows', () => {
    expect(wide).toMatchObject({ columns: 5, rowHeight: 202, gap: 4 });
    expect(wide.tileWidth * 5 + 4 * 4).toBeCloseTo(1024);
    expect(geometryFor(375)).toMatchObject({ columns: 3 });
  });
});

describe('buildLayout', () => {
  it('sizes each month exactly from its day counts, before any photo is loaded', () => {
    const layout = buildLayout([bucket('2015-03', [[14, 7], [2, 3]]), bucket('2014-12', [[31, 1]])], wide);
    const day = (rows: number) => DAY_HEADER_PX + rows * 202 + (rows - 1) * 4 + DAY_END_PX;
    expect(layout.months.map((month) => [month.month, month.top, month.height, month.offset, month.count])).toEqual([
      ['2015-03', 0, MONTH_HEADER_PX + day(2) + day(1), 0, 10],
      ['2014-12', MONTH_HEADER_PX + day(2) + day(1), MONTH_HEADER_PX + day(1), 10, 1],
    ]);
    expect(layout.months[0]!.days).toEqual([
      { day: 14, count: 7, first: 0, top: MONTH_HEADER_PX, rows: 2 },
      { day: 2, count: 3, first: 7, top: MONTH_HEADER_PX + day(2), rows: 1 },
    ]);
    expect(layout.photos).toBe(11);
    expect(layout.height).toBe(layout.months[1]!.top + layout.months[1]!.height);
  });

  it('lays a month out from its loaded photos when given, and gives empty months no room', () => {
    const layout = buildLayout([bucket('2015-03', [[14, 7]]), bucket('2015-02', [[1, 2]])], wide, new Map([['2015-03', [[14, 2], [13, 1]] as DayCounts], ['2015-02', []]]));
    expect(layout.months.map((month) => [month.month, month.count])).toEqual([['2015-03', 3]]);
    expect(layout.months[0]!.days.map((day) => [day.day, day.count, day.first])).toEqual([[14, 2, 0], [13, 1, 2]]);
  });

  it('lays out a million photos in a few milliseconds, far taller than a browser could render', () => {
    const months = Array.from({ length: 240 }, (_, index) => {
      const year = 2024 - Math.floor(index / 12);
      const month = 12 - (index % 12);
      const days: DayCounts = Array.from({ length: 28 }, (_, day) => [28 - day, day < 24 ? 149 : 148] as const);
      return bucket(`${year}-${String(month).padStart(2, '0')}`, days);
    });
    const started = performance.now();
    const layout = buildLayout(months, wide);
    expect(performance.now() - started).toBeLessThan(200);
    expect(layout.photos).toBe(240 * (24 * 149 + 4 * 148));
    expect(layout.photos).toBeGreaterThan(1_000_000);
    expect(layout.height).toBeGreaterThan(33_554_432);
  });
});

describe('finding what is where', () => {
  const layout = buildLayout([bucket('2015-03', [[14, 12], [2, 3]]), bucket('2015-01', [[9, 350]])], wide);
  const [march, january] = layout.months as [(typeof layout.months)[0], (typeof layout.months)[0]];

  it('finds the month at a position by binary search', () => {
    expect(monthIndexAt(layout, -50)).toBe(0);
    expect(monthIndexAt(layout, january.top - 1)).toBe(0);
    expect(monthIndexAt(layout, january.top)).toBe(1);
    expect(monthIndexAt(layout, layout.height + 1000)).toBe(1);
    expect(monthIndexAt(buildLayout([], wide), 0)).toBe(-1);
  });

  it('lists the headers and rows crossing a range, each row with its photos', () => {
    const items = itemsBetween(layout, 0, MONTH_HEADER_PX + DAY_HEADER_PX + 10);
    expect(items.map((item) => item.key)).toEqual(['m2015-03', 'd2015-03-14', 'r2015-03-14-0']);
    const row = items[2]!;
    expect(row).toMatchObject({ kind: 'row', first: 0, count: 5, top: MONTH_HEADER_PX + DAY_HEADER_PX });

    // The last row of a day holds what is left.
    const lastRowTop = march.top + march.days[0]!.top + DAY_HEADER_PX + 2 * 206;
    expect(itemsBetween(layout, lastRowTop, lastRowTop + 1)).toEqual([expect.objectContaining({ kind: 'row', first: 10, count: 2 })]);
  });

  it('asks for the month pages holding the rows in view: visible first, then below, then above', () => {
    const rowsTop = january.top + january.days[0]!.top + DAY_HEADER_PX;
    // Rows 20…25 of January hold photos 100…129: page 2 of 100.
    const top = rowsTop + 20 * 206;
    expect(pagesBetween(layout, top, top + 5 * 206, 100)).toEqual([{ month: '2015-01', page: 2 }]);
    expect(pagesToLoad(layout, top, 5 * 206, 21 * 206, 100)).toEqual([
      { month: '2015-01', page: 2 },
      { month: '2015-01', page: 3 },
      { month: '2015-01', page: 1 },
      { month: '2015-03', page: 1 },
    ]);
  });

  it('keeps the reader in the same month when another month changes size', () => {
    const anchor = anchorAt(layout, january.top + 500)!;
    expect(anchor).toEqual({ month: '2015-01', offset: 500, atTop: false, atBottom: false });
    const grown = buildLayout([bucket('2015-04', [[1, 40]]), bucket('2015-03', [[14, 12], [2, 3]]), bucket('2015-01', [[9, 350]])], wide);
    expect(resolveAnchor(grown, anchor)).toBe(grown.months[2]!.top + 500);
    // At the very top the reader stays at the top, where new photos appear.
    expect(resolveAnchor(grown, anchorAt(layout, 0)!)).toBe(0);
    // A month that is gone gives way to the next older one.
    const shrunk = buildLayout([bucket('2015-03', [[14, 12]]), bucket('2014-11', [[9, 3]])], wide);
    expect(resolveAnchor(shrunk, anchor)).toBe(shrunk.months[1]!.top);
  });

  it('keeps a reader at the end at the end, however the last months change size', () => {
    const viewport = 800;
    const end = anchorAt(layout, layout.height - viewport, viewport)!;
    expect(end.atBottom).toBe(true);
    expect(anchorAt(layout, layout.height - viewport - 50, viewport)!.atBottom).toBe(false);
    const grown = buildLayout([bucket('2015-04', [[1, 40]]), bucket('2015-03', [[14, 12], [2, 3]]), bucket('2015-01', [[9, 900]])], wide);
    expect(resolveAnchor(grown, end)).toBe(grown.height);
  });
});
