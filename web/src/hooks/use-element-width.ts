import { useLayoutEffect, useState, type RefObject } from 'react';

/** Width of an element with no layout (jsdom) or not yet measured: the window's. */
function widthOf(element: HTMLElement | null): number {
  return element?.clientWidth || window.innerWidth;
}

/** The element's content width, kept up to date as it resizes (window resize where ResizeObserver is missing). */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(() => widthOf(ref.current));

  useLayoutEffect(() => {
    const element = ref.current;
    const update = () => setWidth(widthOf(element));
    update();
    if (typeof ResizeObserver === 'undefined') {
      window.addEventListener('resize', update);
      return () => window.removeEventListener('resize', update);
    }
    const observer = new ResizeObserver(update);
    if (element) observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);

  return width;
}
