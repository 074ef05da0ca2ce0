import { calls } from '@photo/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { isTimelineMonthKey, timelineMonthsQueryKey, type TimelineMonthPage } from './get-timeline-month';

/** The contract's bound on imageIds in one tag call. */
const MAX_IDS_PER_CALL = 1000;

/**
 * Every list but the timeline's month pages: the timeline shows no tags, and reading every month
 * page on screen again for a tag change would be wasted.
 */
function refreshAllButTimelinePages(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ predicate: (query) => !isTimelineMonthKey(query.queryKey) });
}

/** Deleted images leave the timeline at once; then every list (the timeline's counts included) is read again. */
export function useDeleteImages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (imageIds: string[]) => callApi(calls.deleteImages, { body: { imageIds } }),
    onSuccess: (_answer, imageIds) => {
      const removed = new Set(imageIds);
      queryClient.setQueriesData<TimelineMonthPage>({ queryKey: timelineMonthsQueryKey }, (page) =>
        page && page.images.some((image) => removed.has(image._id)) ? { ...page, images: page.images.filter((image) => !removed.has(image._id)) } : page,
      );
      return queryClient.invalidateQueries();
    },
  });
}

export function useAddTags() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ tags, imageIds }: { tags: string[]; imageIds: string[] }) => {
      // A long scroll can select more images than one call takes; the tags go on in slices.
      for (let start = 0; start < imageIds.length; start += MAX_IDS_PER_CALL) {
        await callApi(calls.addTags, { body: { tags, imageIds: imageIds.slice(start, start + MAX_IDS_PER_CALL) } });
      }
    },
    onSuccess: () => refreshAllButTimelinePages(queryClient),
  });
}
