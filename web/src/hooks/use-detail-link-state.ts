import { useMemo } from 'react';
import { useLocation } from 'react-router';
import type { ImageDetailState } from '@/lib/images';

type Options = {
  /** The search text, when the list is search results. */
  searchText?: string;
  /** The origin, when this screen's address does not say enough (the profile's default tab). */
  origin?: string;
};

/**
 * The router state a screen's image links hand to the detail: the ids to step through (omit them
 * to step through the whole visible list) and this screen's own address as the origin.
 */
export function useDetailLinkState(ids?: readonly string[], { searchText, origin }: Options = {}): ImageDetailState {
  const { pathname, search } = useLocation();
  return useMemo(
    () => ({ ids: ids ? [...ids] : undefined, origin: origin ?? `${pathname}${search}`, searchText }),
    [ids, origin, pathname, search, searchText],
  );
}
