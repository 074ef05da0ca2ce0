import { useSyncExternalStore } from 'react';
import { monthLabel } from './labels';
import { monthIndexAt, MONTH_HEADER_PX, type TimelineLayout } from './layout';
import type { PositionStore } from './use-timeline-scroll';

/** The month being read, over the top of the timeline once its own header has scrolled away. */
export function CurrentMonth({ layout, position }: { layout: TimelineLayout; position: PositionStore }) {
  const top = useSyncExternalStore(position.subscribe, position.get);
  const month = layout.months[monthIndexAt(layout, top + 1)];
  if (!month || top < month.top + MONTH_HEADER_PX) return null;
  return (
    <p aria-hidden="true" className="pointer-events-none absolute top-2 left-2 z-10 rounded-full bg-white/95 px-3 py-1 text-sm font-semibold text-slate-900 shadow">
      {monthLabel(month.month)}
    </p>
  );
}
