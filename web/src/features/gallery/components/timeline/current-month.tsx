import { useSyncExternalStore } from 'react';
import { monthLabel, shortMonthLabel } from './labels';
import { monthIndexAt, MONTH_HEADER_PX, NARROW_BELOW_PX, type TimelineLayout } from './layout';
import type { PositionStore } from './use-timeline-scroll';

/**
 * The month being read, over the top of the timeline once its own header has scrolled away. It
 * starts right of the first tile's checkbox (top-2 left-2, size-8: 8–40px) and is short enough to
 * end before the second tile's; should it still meet a checkbox, the checkbox is drawn above it
 * (timeline-tile.tsx) and clicks pass through it.
 */
export function CurrentMonth({ layout, position }: { layout: TimelineLayout; position: PositionStore }) {
  const top = useSyncExternalStore(position.subscribe, position.get);
  const month = layout.months[monthIndexAt(layout, top + 1)];
  if (!month || top < month.top + MONTH_HEADER_PX) return null;
  // Narrow columns (a phone) leave about 70px before the second tile's checkbox: 'Sep 2019'.
  const narrow = layout.geometry.width < NARROW_BELOW_PX;
  return (
    <p
      aria-hidden="true"
      className={`pointer-events-none absolute top-2 left-11 z-10 rounded-full bg-white/95 py-1 font-semibold whitespace-nowrap text-slate-900 shadow ${
        narrow ? 'px-2.5 text-xs' : 'px-3 text-sm'
      }`}
    >
      {narrow ? shortMonthLabel(month.month) : monthLabel(month.month)}
    </p>
  );
}
