import { calls, type ResponseOf } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, isAbortError, isNotFound } from '@/lib/api-client';
import { isRefreshing, revocableQueryOptions } from '@/lib/live-queries';

export type Timeline = ResponseOf<typeof calls.getTimeline>;

/**
 * The timeline's queries live under the gallery's key: whatever refreshes the gallery refreshes
 * them. The months (counts per month and day) are this key exactly; month pages sit below it.
 */
export const timelineQueryKey = ['gallery', 'timeline'] as const;

const EMPTY: Timeline = { totalImages: 0, months: [] };

async function loadTimeline(signal: AbortSignal, refreshing: boolean): Promise<Timeline> {
  try {
    return await callApi(calls.getTimeline, { signal });
  } catch (error) {
    if (isAbortError(error)) throw error;
    // Spec §8: a gallery load failure empties the list (a 404 just means nothing yet).
    if (!isNotFound(error)) console.error('Error fetching images:', error);
    // A failed periodic refresh keeps the timeline on screen (the query keeps its data on error).
    if (refreshing && !isNotFound(error)) throw error;
    return EMPTY;
  }
}

export const timelineQueryOptions = () =>
  queryOptions({
    queryKey: timelineQueryKey,
    queryFn: ({ signal, client }) => loadTimeline(signal, isRefreshing(client, timelineQueryKey)),
  });

/** Every month of what this person may see, read again every 30 s while visible (shares can be switched off). */
export function useTimeline() {
  return useQuery({ ...timelineQueryOptions(), ...revocableQueryOptions });
}
