import { describe, expect, it } from 'vitest';
import { buildLayout, geometryFor, type DayCounts } from './layout';
import { monthAtTrack, positionAtTrack, scrubberMarks } from './scrubber-marks';

const month = (key: string, count: number) => ({ month: key, days: [[1, count]] as DayCounts });

describe('scrubber marks', () => {
  const layout = buildLayout(
    [month('2016-02', 40), month('2016-01', 10), month('2015-12', 200), month('2015-06', 5), month('2009-03', 60)],
    geometryFor(1024),
  );

  it('labels each year at its newest month with its photo count, at scale', () => {
    const { years, ticks } = scrubberMarks(layout, 800);
    expect(years.map((year) => [year.year, year.count, year.month])).toEqual([
      [2016, 50, '2016-02'],
      [2015, 205, '2015-12'],
      [2009, 60, '2009-03'],
    ]);
    expect(years[1]!.y).toBeCloseTo((layout.months[2]!.top / layout.height) * 800);
    expect(ticks.map((tick) => tick.month)).toEqual(['2016-02', '2016-01', '2015-12', '2015-06', '2009-03']);
  });

  it('leaves out labels and ticks that would overlap on a short track', () => {
    const { years, ticks } = scrubberMarks(layout, 40);
    expect(years.length).toBeLessThan(3);
    expect(ticks.length).toBeLessThan(5);
    expect(years[0]!.year).toBe(2016);
  });

  it('maps a point of the track to the month drawn there', () => {
    expect(positionAtTrack(layout, 0, 800)).toBe(0);
    expect(positionAtTrack(layout, 800, 800)).toBe(layout.height);
    expect(monthAtTrack(layout, 799, 800)?.month).toBe('2009-03');
    expect(monthAtTrack(layout, 0, 800)?.month).toBe('2016-02');
  });
});
