import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent, type PointerEvent } from 'react';
import { monthLabel, photosLabel } from './labels';
import { monthIndexAt, type TimelineLayout } from './layout';
import { monthAtTrack, positionAtTrack, scrubberMarks } from './scrubber-marks';
import type { PositionStore } from './use-timeline-scroll';

type ScrubberProps = {
  layout: TimelineLayout;
  /** Height of the track: the timeline's viewport. */
  height: number;
  position: PositionStore;
  onJump: (top: number) => void;
};

/**
 * The timeline at scale along the right edge (Immich's scrubber): years labelled, months ticked,
 * a bar where the reader is. Pointing shows the month and its photos; a click or drag shows that
 * place at once. As a slider, the arrow keys step a month, Home and End go to either end.
 */
export function Scrubber({ layout, height, position, onJump }: ScrubberProps) {
  const top = useSyncExternalStore(position.subscribe, position.get);
  // Drawn once per layout: the scrubber re-renders on every scroll event, its marks do not.
  const markElements = useMemo(() => {
    const marks = scrubberMarks(layout, height);
    return (
      <>
        {marks.ticks.map((tick) => (
          <span key={tick.month} aria-hidden="true" className="absolute right-1 size-1 rounded-full bg-slate-400" style={{ top: tick.y }} />
        ))}
        {marks.years.map((year) => (
          <span
            key={year.year}
            title={`${year.year}: ${photosLabel(year.count)}`}
            className="absolute right-3 text-xs leading-none font-medium text-slate-600"
            style={{ top: year.y }}
          >
            {year.year}
          </span>
        ))}
      </>
    );
  }, [layout, height]);
  const trackRef = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const frame = useRef<number | null>(null);
  const [pointerY, setPointerY] = useState<number | null>(null);
  useEffect(() => () => cancelAnimationFrame(frame.current ?? 0), []);

  const index = Math.max(0, monthIndexAt(layout, top + 1));
  const current = layout.months[index];
  const scale = layout.height > 0 ? height / layout.height : 0;
  const pointed = pointerY === null ? undefined : monthAtTrack(layout, pointerY, height);

  const yOf = (event: PointerEvent) => {
    const rect = trackRef.current?.getBoundingClientRect();
    return Math.min(Math.max(0, event.clientY - (rect?.top ?? 0)), height);
  };
  const jumpToY = (y: number) => onJump(positionAtTrack(layout, y, height));

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault(); // no text selection while dragging
    event.currentTarget.setPointerCapture?.(event.pointerId);
    dragging.current = true;
    const y = yOf(event);
    setPointerY(y);
    jumpToY(y);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const y = yOf(event);
    setPointerY(y);
    if (!dragging.current || frame.current !== null) return;
    // One jump per frame however fast the pointer moves.
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      if (dragging.current) jumpToY(y);
    });
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    if (!dragging.current) return;
    dragging.current = false;
    event.currentTarget.releasePointerCapture?.(event.pointerId);
    jumpToY(yOf(event));
  };

  const goToMonth = (target: number) => {
    const month = layout.months[Math.min(Math.max(0, target), layout.months.length - 1)];
    if (month) onJump(month.top);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!current) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowRight') goToMonth(index + 1);
    // Up goes to the start of the month on screen first, as a page up would.
    else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') goToMonth(top > current.top + 1 ? index : index - 1);
    else if (event.key === 'Home') goToMonth(0);
    else if (event.key === 'End') goToMonth(layout.months.length - 1);
    else return;
    event.preventDefault();
  };

  return (
    <div
      ref={trackRef}
      role="slider"
      tabIndex={0}
      aria-label="Timeline scrubber"
      aria-orientation="vertical"
      aria-valuemin={0}
      aria-valuemax={Math.max(0, layout.months.length - 1)}
      aria-valuenow={index}
      aria-valuetext={current ? `${monthLabel(current.month)}, ${photosLabel(current.count)}` : undefined}
      className="relative w-14 shrink-0 cursor-row-resize touch-none select-none rounded-md focus-visible:outline-2 focus-visible:outline-indigo-600"
      style={{ height }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
      onPointerLeave={() => {
        if (!dragging.current) setPointerY(null);
      }}
      onKeyDown={onKeyDown}
    >
      <div aria-hidden="true" className="absolute inset-y-0 right-1.5 w-px bg-slate-200" />
      {markElements}
      <div aria-hidden="true" className="absolute right-0 h-0.5 w-8 rounded bg-indigo-600" style={{ top: top * scale }} />
      {pointed ? (
        <div
          role="tooltip"
          className="pointer-events-none absolute right-full z-30 mr-2 -translate-y-1/2 rounded-md bg-slate-900 px-2 py-1 text-xs whitespace-nowrap text-white shadow"
          style={{ top: pointerY ?? 0 }}
        >
          {monthLabel(pointed.month)} · {photosLabel(pointed.count)}
        </div>
      ) : null}
    </div>
  );
}
