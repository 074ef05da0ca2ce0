import { useLayoutEffect, useState, type RefObject } from 'react';

/** Room left under the timeline for the page's own bottom edge. */
const BOTTOM_PX = 16;
const MIN_HEIGHT_PX = 320;

/** Window height minus the element's distance from the top of the page: the element fills the rest of the screen. */
function heightFor(element: HTMLElement | null): number {
  const top = element ? element.getBoundingClientRect().top + window.scrollY : 0;
  return Math.max(MIN_HEIGHT_PX, Math.round(window.innerHeight - top - BOTTOM_PX));
}

/**
 * The height that makes the element reach the bottom of the window. Measured when the window
 * resizes and when the page's layout does (a tag panel opening above it), never while scrolling
 * (a measurement forces a layout).
 */
export function useFillHeight(ref: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(() => heightFor(null));
  useLayoutEffect(() => {
    const update = () => setHeight(heightFor(ref.current));
    update();
    window.addEventListener('resize', update);
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    observer?.observe(document.body);
    return () => {
      window.removeEventListener('resize', update);
      observer?.disconnect();
    };
  }, [ref]);
  return height;
}
