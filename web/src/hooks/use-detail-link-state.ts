import { useMemo } from 'react';
import { useLocation } from 'react-router';
import type { ImageDetailState } from '@/lib/images';

/**
 * The router state a screen's image links hand to the detail: the ids to step through (omit them
 * to step through the whole visible list) and this screen's own address as the origin.
 */
export function useDetailLinkState(ids?: readonly string[], searchText?: string): ImageDetailState {
  const { pathname, search } = useLocation();
  return useMemo(
    () => ({ ids: ids ? [...ids] : undefined, origin: `${pathname}${search}`, searchText }),
    [ids, pathname, search, searchText],
  );
}
