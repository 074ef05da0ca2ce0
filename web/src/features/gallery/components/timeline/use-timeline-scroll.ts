import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { anchorAt, resolveAnchor, type TimelineLayout } from './layout';
import { placeWindow, reanchor, windowHeight, type WindowPlacement } from './scroll-window';

/** The rendered rows change every this many pixels of scrolling (not on every scroll event). */
export const RENDER_STEP_PX = 200;
/** Month pages to load are worked out at most this often while scrolling, so a fling or a drag of the scrubber does not ask for every month it passes. */
export const LOAD_THROTTLE_MS = 120;

/** The virtual position of the viewport's top, for whoever shows it (the scrubber) without re-rendering the timeline. */
export type PositionStore = { get: () => number; set: (top: number) => void; subscribe: (listener: () => void) => () => void };

function createPositionStore(initial: number): PositionStore {
  let top = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => top,
    set: (next) => {
      if (next === top) return;
      top = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const quantize = (top: number) => Math.floor(top / RENDER_STEP_PX) * RENDER_STEP_PX;

/** A placement waiting to be applied: an absolute scrollTop (a jump), or null to shift by the change of base (a re-anchor). */
type Placement = { base: number; scrollTop: number | null };

/**
 * Keeps the scroll container's window over the virtual timeline (see scroll-window.ts): where the
 * reader is, which part is rendered, which part should be loaded, and jumps. The reader's place
 * survives layout changes (sections sized anew once loaded, photos added or removed elsewhere).
 */
export function useTimelineScroll(scrollerRef: RefObject<HTMLElement | null>, layout: TimelineLayout, viewport: number, maxWindow: number, initialTop: number) {
  const total = layout.height;
  const settings = useRef({ total, viewport, maxWindow });
  settings.current = { total, viewport, maxWindow };

  // A reader brought back to the end (layout.ts, Anchor `atBottom`) stays at the end while the last
  // months take their real sizes, until they scroll or jump themselves: a month and an offset read
  // off the first, estimated layout put them a month too high.
  const pinnedToEnd = useRef(initialTop > 0 && initialTop >= total);
  const [placement, setPlacement] = useState<Placement>(() => placeWindow(initialTop, total, viewport, maxWindow));
  const [store] = useState(() => createPositionStore(placement.base + (placement.scrollTop ?? 0)));
  /** The base the DOM shows now, and one requested but not yet on screen. */
  const shownBase = useRef(placement.base);
  const pendingBase = useRef<number | null>(null);
  const [renderTop, setRenderTop] = useState(() => quantize(store.get()));
  const [loadTop, setLoadTop] = useState(() => store.get());
  const loadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const publish = useCallback(
    (top: number) => {
      store.set(top);
      setRenderTop(quantize(top));
      if (loadTimer.current !== undefined) return;
      setLoadTop(top);
      loadTimer.current = setTimeout(() => {
        loadTimer.current = undefined;
        setLoadTop(store.get());
      }, LOAD_THROTTLE_MS);
    },
    [store],
  );
  useEffect(() => () => clearTimeout(loadTimer.current), []);

  // A new base is applied in the same frame as the rows positioned for it: nothing visibly moves.
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const shift = shownBase.current - placement.base;
    shownBase.current = placement.base;
    pendingBase.current = null;
    if (placement.scrollTop !== null) scroller.scrollTop = placement.scrollTop;
    else if (shift !== 0) scroller.scrollTop += shift;
    publish(placement.base + scroller.scrollTop);
  }, [placement, scrollerRef, publish]);

  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const onScroll = () => {
      const base = shownBase.current;
      publish(base + scroller.scrollTop);
      if (pendingBase.current !== null) return;
      const { total: height, viewport: shown, maxWindow: max } = settings.current;
      const moved = reanchor(base, scroller.scrollTop, height, shown, max);
      if (moved && moved.base !== base) {
        pendingBase.current = moved.base;
        setPlacement({ base: moved.base, scrollTop: null });
      }
    };
    scroller.addEventListener('scroll', onScroll, { passive: true });
    return () => scroller.removeEventListener('scroll', onScroll);
  }, [scrollerRef, publish]);

  /** Shows virtual position `target` at the viewport's top: within the window by scrolling, else by placing a new window. */
  const jumpTo = useCallback(
    (target: number) => {
      const scroller = scrollerRef.current;
      const { total: height, viewport: shown, maxWindow: max } = settings.current;
      const placed: WindowPlacement = placeWindow(target, height, shown, max);
      const top = placed.base + placed.scrollTop;
      const base = shownBase.current;
      if (scroller && pendingBase.current === null && top >= base && top + shown <= base + windowHeight(height, max)) {
        scroller.scrollTop = top - base;
        publish(top);
        return;
      }
      pendingBase.current = placed.base;
      setPlacement({ base: placed.base, scrollTop: placed.scrollTop });
    },
    [scrollerRef, publish],
  );

  // Sections change size (a month loaded, photos added or removed): the reader stays where they were.
  const shownLayout = useRef(layout);
  useLayoutEffect(() => {
    const previous = shownLayout.current;
    shownLayout.current = layout;
    const scroller = scrollerRef.current;
    if (previous === layout || !scroller) return;
    const current = shownBase.current + scroller.scrollTop;
    const anchor = anchorAt(previous, current);
    const target = pinnedToEnd.current ? layout.height : anchor ? resolveAnchor(layout, anchor) : 0;
    // Also when the timeline got shorter than the window reaches.
    if (target !== current || shownBase.current + windowHeight(layout.height, maxWindow) > layout.height) jumpTo(target);
  }, [layout, scrollerRef, maxWindow, jumpTo]);

  // Whatever the reader does in the scroller ends the pin (keys and the scrubber jump: jumpByReader).
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const unpin = () => {
      pinnedToEnd.current = false;
    };
    const kinds = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
    for (const kind of kinds) scroller.addEventListener(kind, unpin, { passive: true });
    return () => {
      for (const kind of kinds) scroller.removeEventListener(kind, unpin);
    };
  }, [scrollerRef]);
  const jumpByReader = useCallback(
    (target: number) => {
      pinnedToEnd.current = false;
      jumpTo(target);
    },
    [jumpTo],
  );

  return { base: placement.base, windowHeight: windowHeight(total, maxWindow), renderTop, loadTop, store, jumpTo: jumpByReader };
}
