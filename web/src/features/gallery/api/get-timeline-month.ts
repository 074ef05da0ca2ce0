import { calls, type ResponseOf } from '@photo/contract';
import { queryOptions, useQueries, useQueryClient, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { callApi, isAbortError, isNotFound } from '@/lib/api-client';
import { revocableQueryOptions } from '@/lib/live-queries';
import { timelineQueryKey } from './get-timeline';

export type TimelineMonthPage = ResponseOf<typeof calls.getTimelineMonth>;

/** One page of one month. */
export type PageRef = { month: string; page: number };

/** Photos per month page: a screenful or two of rows, so a jump into a big month loads one or two pages. */
export const TIMELINE_PAGE_SIZE = 100;

/**
 * Month pages kept in the cache beyond those on screen; further ones (the least recently read
 * first) are dropped, so a long scroll through a large library holds a bounded number of photos.
 */
export const MAX_CACHED_MONTH_PAGES = 40;

export const timelineMonthsQueryKey = [...timelineQueryKey, 'month'] as const;
export const timelineMonthQueryKey = (month: string, page: number) => [...timelineMonthsQueryKey, month, page] as const;

export function isTimelineMonthKey(key: QueryKey): boolean {
  return timelineMonthsQueryKey.every((part, index) => key[index] === part) && key.length === timelineMonthsQueryKey.length + 2;
}

export const timelineMonthQueryOptions = (month: string, page: number) =>
  queryOptions({
    queryKey: timelineMonthQueryKey(month, page),
    queryFn: async ({ signal }): Promise<TimelineMonthPage> => {
      try {
        return await callApi(calls.getTimelineMonth, { params: { month }, query: { page, limit: TIMELINE_PAGE_SIZE }, signal });
      } catch (error) {
        // A month that is gone (everything in it deleted or no longer shared) is an empty one.
        if (isNotFound(error)) {
          return { month, count: 0, offset: 0, galleryPage: 1, images: [], pagination: { currentPage: page, hasMore: false, totalImages: 0 } };
        }
        if (!isAbortError(error)) console.error('Error fetching images:', error);
        throw error;
      }
    },
  });

/**
 * Loads the month pages near the viewport and re-reads them every 30 s while visible. A page that
 * leaves the list while loading is cancelled (its request aborted). True while one of them loads
 * for the first time.
 */
export function useTimelinePages(pages: readonly PageRef[]): boolean {
  return useQueries({
    queries: pages.map((ref) => ({ ...timelineMonthQueryOptions(ref.month, ref.page), ...revocableQueryOptions })),
    combine: (results) => results.some((result) => result.isLoading),
  });
}

/** Every loaded month page in the cache: month → page → answer. */
export type CachedMonthPages = ReadonlyMap<string, ReadonlyMap<number, TimelineMonthPage>>;

type Entry = { month: string; page: number; data: TimelineMonthPage };

function cachedEntries(client: QueryClient): Entry[] {
  const entries: Entry[] = [];
  for (const query of client.getQueryCache().findAll({ queryKey: timelineMonthsQueryKey })) {
    const data = query.state.data as TimelineMonthPage | undefined;
    if (!data || !isTimelineMonthKey(query.queryKey)) continue;
    entries.push({ month: query.queryKey[3] as string, page: query.queryKey[4] as number, data });
  }
  return entries;
}

function toPages(entries: Entry[]): CachedMonthPages {
  const months = new Map<string, Map<number, TimelineMonthPage>>();
  for (const { month, page, data } of entries) {
    let pages = months.get(month);
    if (!pages) months.set(month, (pages = new Map()));
    pages.set(page, data);
  }
  return months;
}

const sameEntries = (a: Entry[], b: Entry[]) =>
  a.length === b.length && a.every((entry, index) => entry.data === b[index]!.data && entry.page === b[index]!.page && entry.month === b[index]!.month);

/**
 * The month pages in the cache, whoever loaded them, as one value that changes only when an answer
 * does (a refetch that brings the same photos keeps it, thanks to the cache's structural sharing).
 */
export function useCachedMonthPages(): CachedMonthPages {
  const client = useQueryClient();
  const [state, setState] = useState(() => {
    const entries = cachedEntries(client);
    return { entries, pages: toPages(entries) };
  });

  useEffect(() => {
    let scheduled = false;
    const update = () => {
      scheduled = false;
      const entries = cachedEntries(client);
      setState((current) => (sameEntries(current.entries, entries) ? current : { entries, pages: toPages(entries) }));
    };
    update();
    return client.getQueryCache().subscribe((event) => {
      if (scheduled || !isTimelineMonthKey(event.query.queryKey)) return;
      scheduled = true;
      queueMicrotask(update);
    });
  }, [client]);

  return state.pages;
}

/**
 * Drops month pages nobody shows, least recently read first, beyond MAX_CACHED_MONTH_PAGES; pages
 * in `wanted` and pages for which `keep` says so (e.g. holding a selected photo) stay.
 */
export function pruneMonthPages(client: QueryClient, wanted: readonly PageRef[], keep: (page: TimelineMonthPage) => boolean, max = MAX_CACHED_MONTH_PAGES): void {
  const cache = client.getQueryCache();
  const all = cache.findAll({ queryKey: timelineMonthsQueryKey });
  let excess = all.length - max;
  if (excess <= 0) return;
  const wantedKeys = new Set(wanted.map((ref) => `${ref.month}/${ref.page}`));
  const idle = all
    .filter((query) => query.getObserversCount() === 0 && !wantedKeys.has(`${String(query.queryKey[3])}/${String(query.queryKey[4])}`))
    .sort((a, b) => a.state.dataUpdatedAt - b.state.dataUpdatedAt);
  for (const query of idle as Query[]) {
    if (excess <= 0) break;
    const data = query.state.data as TimelineMonthPage | undefined;
    if (data && keep(data)) continue;
    cache.remove(query);
    excess -= 1;
  }
}
