import { parseMonth } from './labels';
import { monthIndexAt, type MonthBlock, type TimelineLayout } from './layout';

/** Least room between two year labels, and between two month ticks, on the scrubber. */
export const YEAR_LABEL_SPACING_PX = 18;
export const MONTH_TICK_SPACING_PX = 6;

export type YearMark = { year: number; y: number; count: number; month: string };
export type MonthTick = { month: string; y: number };

/**
 * The scrubber draws the timeline at scale: a month takes the share of the track its section takes
 * of the timeline. Years are labelled at their newest month and months ticked, wherever there is
 * room, so a library of fifty years stays a few hundred marks.
 */
export function scrubberMarks(layout: TimelineLayout, track: number): { years: YearMark[]; ticks: MonthTick[] } {
  const years: YearMark[] = [];
  const ticks: MonthTick[] = [];
  const scale = layout.height > 0 ? track / layout.height : 0;
  let lastLabel = -Infinity;
  let lastTick = -Infinity;
  let current: YearMark | undefined;
  for (const month of layout.months) {
    const y = month.top * scale;
    const [year] = parseMonth(month.month);
    if (current?.year !== year) {
      current = { year, y, count: 0, month: month.month };
      if (y - lastLabel >= YEAR_LABEL_SPACING_PX) {
        years.push(current);
        lastLabel = y;
      }
    }
    current.count += month.count;
    if (y - lastTick >= MONTH_TICK_SPACING_PX) {
      ticks.push({ month: month.month, y });
      lastTick = y;
    }
  }
  return { years, ticks };
}

/** The virtual position a point of the track stands for. */
export function positionAtTrack(layout: TimelineLayout, y: number, track: number): number {
  return track > 0 ? (Math.min(Math.max(0, y), track) / track) * layout.height : 0;
}

/** The month at a point of the track. */
export function monthAtTrack(layout: TimelineLayout, y: number, track: number): MonthBlock | undefined {
  return layout.months[monthIndexAt(layout, positionAtTrack(layout, y, track))];
}
