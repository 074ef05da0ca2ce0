import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { texts } from '@photo/contract';
import { useElementWidth } from '@/hooks/use-element-width';
import type { Timeline as TimelineData } from '../../api/get-timeline';
import { pruneMonthPages, TIMELINE_PAGE_SIZE, useTimelinePages } from '../../api/get-timeline-month';
import { savedTimelineAnchor, saveTimelineAnchor } from '../saved-views';
import { CurrentMonth } from './current-month';
import { dayLabel, monthLabel } from './labels';
import { anchorAt, buildLayout, DAY_HEADER_PX, geometryFor, itemsBetween, MONTH_HEADER_PX, pagesToLoad, resolveAnchor, type DayCounts } from './layout';
import { daysOfImages, loadedImageAt, type LoadedMonth } from './loaded-months';
import { MAX_WINDOW_PX } from './scroll-window';
import { Scrubber } from './scrubber';
import { TimelineTile } from './timeline-tile';
import { useFillHeight } from './use-fill-height';
import { useStaleCountsCheck } from './use-stale-counts-check';
import { useTimelineKeys } from './use-timeline-keys';
import { RENDER_STEP_PX, useTimelineScroll } from './use-timeline-scroll';

/** Rendered beyond the viewport on each side, so a quick scroll never shows an empty band. */
const OVERSCAN_PX = 500;
/** Month pages are loaded this far beyond the viewport (at least), so rows arrive loaded. */
const PREFETCH_MIN_PX = 1000;
const PREFETCH_SCREENS = 1.5;

const scrollerStyle: CSSProperties = { scrollbarWidth: 'none', overflowAnchor: 'none' };

type TimelineProps = {
  timeline: TimelineData;
  loadedMonths: ReadonlyMap<string, LoadedMonth>;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  linkState: unknown;
};

/**
 * The gallery's default view (issue 11): every photo this person may see, newest taken first,
 * under month and day headers, with the scrubber along the right edge. Virtualized twice over:
 * only the rows near the viewport are in the DOM, and the scroll container holds a bounded window
 * of the timeline (scroll-window.ts), so a million photos scroll like a hundred.
 */
export function Timeline({ timeline, loadedMonths, selected, onToggle, linkState }: TimelineProps) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(scrollerRef);
  const viewport = useFillHeight(scrollerRef);
  const geometry = useMemo(() => geometryFor(width), [width]);

  // A month read whole lays out from its photos, whatever the counts said.
  const loadedDays = useMemo(() => {
    const days = new Map<string, DayCounts>();
    for (const [month, loaded] of loadedMonths) if (loaded.complete) days.set(month, daysOfImages(loaded.complete));
    return days;
  }, [loadedMonths]);
  const layout = useMemo(() => buildLayout(timeline.months, geometry, loadedDays), [timeline.months, geometry, loadedDays]);

  // Coming back from a photo's detail returns to the same place (the router restores the window's scroll, not this one's).
  const client = useQueryClient();
  const { key } = useLocation();
  const [initialTop] = useState(() => {
    const anchor = savedTimelineAnchor(client, key);
    return anchor ? resolveAnchor(layout, anchor) : 0;
  });
  const view = useTimelineScroll(scrollerRef, layout, viewport, MAX_WINDOW_PX, initialTop);
  const { jumpTo, store } = view;
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  const viewportRef = useRef(viewport);
  viewportRef.current = viewport;
  useEffect(() => () => saveTimelineAnchor(client, key, anchorAt(layoutRef.current, store.get(), viewportRef.current)), [client, key, store]);

  const keyActions = useMemo(
    () => ({
      page: (direction: 1 | -1) => jumpTo(store.get() + direction * Math.round(viewport * 0.9)),
      home: () => jumpTo(0),
      end: () => jumpTo(layout.height),
    }),
    [jumpTo, store, viewport, layout.height],
  );
  useTimelineKeys(keyActions);

  const items = useMemo(
    () => itemsBetween(layout, view.renderTop - OVERSCAN_PX, view.renderTop + viewport + RENDER_STEP_PX + OVERSCAN_PX),
    [layout, view.renderTop, viewport],
  );
  const pages = useMemo(
    () => pagesToLoad(layout, view.loadTop, viewport, Math.max(PREFETCH_MIN_PX, viewport * PREFETCH_SCREENS), TIMELINE_PAGE_SIZE),
    [layout, view.loadTop, viewport],
  );
  const loading = useTimelinePages(pages);
  useEffect(() => pruneMonthPages(client, pages, (page) => page.images.some((image) => selected.has(image._id))), [client, pages, selected]);
  useStaleCountsCheck(timeline, loadedMonths);

  const { base } = view;
  return (
    // `isolate`: the tiles' checkboxes, the month label and the scrubber's tooltip stack among
    // themselves (timeline-tile.tsx, current-month.tsx), under the page's sticky header.
    <section aria-label="Timeline" className="relative isolate flex gap-2">
      <div
        ref={scrollerRef}
        tabIndex={0}
        aria-label="Photos by date"
        className="relative min-w-0 flex-1 overflow-x-hidden overflow-y-auto rounded-md focus-visible:outline-2 focus-visible:outline-indigo-600"
        style={{ ...scrollerStyle, height: viewport }}
      >
        <div role="list" aria-label="Gallery" className="relative w-full" style={{ height: view.windowHeight }}>
          {items.map((item) => {
            const top = item.top - base;
            if (item.kind === 'month') {
              return (
                <h2 key={item.key} className="absolute left-0 flex w-full items-end pb-3 text-xl font-semibold text-slate-900" style={{ top, height: MONTH_HEADER_PX }}>
                  {monthLabel(item.month.month)}
                </h2>
              );
            }
            if (item.kind === 'day') {
              return (
                <h3 key={item.key} className="absolute left-0 flex w-full items-end pb-2 text-sm font-medium text-slate-600" style={{ top, height: DAY_HEADER_PX }}>
                  {dayLabel(item.month.month, item.day.day)}
                </h3>
              );
            }
            const loaded = loadedMonths.get(item.month.month);
            return (
              <div key={item.key} role="none" className="absolute left-0 flex w-full" style={{ top, height: geometry.rowHeight, gap: geometry.gap }}>
                {Array.from({ length: item.count }, (_, offset) => {
                  const index = item.first + offset;
                  const image = loadedImageAt(loaded, index, TIMELINE_PAGE_SIZE);
                  return (
                    <TimelineTile
                      key={image?._id ?? `wait-${index}`}
                      image={image}
                      width={geometry.tileWidth}
                      height={geometry.rowHeight}
                      position={item.month.offset + index + 1}
                      total={layout.photos}
                      selected={image ? selected.has(image._id) : false}
                      onToggle={onToggle}
                      linkState={linkState}
                    />
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
      <CurrentMonth layout={layout} position={store} />
      <Scrubber layout={layout} height={viewport} position={store} onJump={jumpTo} />
      {loading ? (
        <p role="status" className="pointer-events-none absolute bottom-4 left-1/2 -translate-x-1/2 rounded-full bg-white/95 px-4 py-2 text-sm text-slate-700 shadow">
          {texts.LOADING_MORE}
        </p>
      ) : null}
    </section>
  );
}
