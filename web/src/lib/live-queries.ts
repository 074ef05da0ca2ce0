import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { isApiError } from './api-client';

/** How often a list that may show other people's photos is read again while the tab is visible. */
export const REVOCABLE_REFRESH_MS = 30_000;

/**
 * Query options for lists holding other people's photos. A sharer can switch a recipient's
 * access off at any time; the recipient's open tab then loses those images within ~30 s, and at
 * once when the tab comes back to the front. A hidden tab asks nothing.
 */
export const revocableQueryOptions = {
  refetchInterval: REVOCABLE_REFRESH_MS,
  refetchIntervalInBackground: false,
  refetchOnWindowFocus: true,
} as const;

/**
 * The answer to show from a query that reads itself again: the last one, unless the latest read
 * said it is gone (a 4xx, e.g. a 404 once access was switched off). A network or server failure
 * while refreshing keeps what is on screen rather than emptying it.
 */
export function shownData<T>(query: { data: T | undefined; error: unknown }): T | undefined {
  return isGone(query.error) ? undefined : query.data;
}

export function isGone(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500;
}

/**
 * True while `queryKey` is being read again with an answer already on screen (an interval, focus
 * or invalidation refetch), as opposed to its first load or an infinite query's next page.
 */
export function isRefreshing(client: QueryClient, queryKey: QueryKey): boolean {
  const query = client.getQueryCache().find({ queryKey, exact: true });
  return query?.state.data !== undefined && !query.state.fetchMeta?.fetchMore;
}
