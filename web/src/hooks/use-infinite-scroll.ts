import { useEffect } from 'react';

/** Spec §9: the next page loads when within 1000px of the page bottom. */
export const LOAD_MORE_THRESHOLD_PX = 1000;

/** Calls `loadMore` whenever the reader is near the bottom and `enabled` (more pages, none loading). */
export function useInfiniteScroll(enabled: boolean, loadMore: () => void): void {
  useEffect(() => {
    if (!enabled) return;
    const check = () => {
      const bottom = window.scrollY + window.innerHeight;
      if (bottom >= document.documentElement.scrollHeight - LOAD_MORE_THRESHOLD_PX) loadMore();
    };
    check(); // a short first page may not fill the screen
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
    };
  }, [enabled, loadMore]);
}
