import { useEffect, useState, type RefObject } from 'react';

export type NearViewportOptions = {
  /** How far outside the viewport still counts as near, in pixels. */
  marginPx: number;
  /** How long the element must stay near before it counts, so a fast fling loads nothing. */
  delayMs: number;
  /** When false the hook answers true at once (nothing to wait for). */
  enabled?: boolean;
};

/**
 * True once the element has been within `marginPx` of the viewport for `delayMs`; it stays true.
 * Without IntersectionObserver (old browsers, jsdom) everything counts as near.
 */
export function useNearViewport(ref: RefObject<Element | null>, { marginPx, delayMs, enabled = true }: NearViewportOptions): boolean {
  const [near, setNear] = useState(() => !enabled || typeof IntersectionObserver === 'undefined');

  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        const isNear = entries.some((entry) => entry.isIntersecting);
        clearTimeout(timer);
        if (isNear) timer = setTimeout(() => setNear(true), delayMs);
      },
      { rootMargin: `${marginPx}px` },
    );
    observer.observe(element);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [ref, near, marginPx, delayMs]);

  return near;
}
