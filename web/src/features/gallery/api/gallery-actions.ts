import { calls } from '@photo/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, callApi, isApiError } from '@/lib/api-client';
import { isTimelineMonthKey, timelineMonthsQueryKey, type TimelineMonthPage } from './get-timeline-month';

/** The contract's bound on imageIds in one call (tags, deletes). */
const MAX_IDS_PER_CALL = 1000;

/**
 * Deletes in slices of what one call takes: a timeline's Select All can hold thousands. Each slice
 * is all or nothing on the server (DECISIONS §3); when a later one is refused, the error says how
 * many went before it (`deletedBefore`), so the lists are read again and the person knows.
 */
export async function deleteInSlices(
  imageIds: readonly string[],
  send: (slice: string[]) => Promise<{ message: string }>,
): Promise<{ message: string }> {
  let answer = { message: '' };
  for (let start = 0; start < imageIds.length; start += MAX_IDS_PER_CALL) {
    try {
      answer = await send(imageIds.slice(start, start + MAX_IDS_PER_CALL));
    } catch (error) {
      if (start === 0 || !isApiError(error)) throw error;
      const message = `${start} of ${imageIds.length} images were deleted; the rest were not. ${error.body?.message ?? error.message}`;
      throw Object.assign(new ApiError(error.status, { ...error.body, message }, error.url), { deletedBefore: start });
    }
  }
  // One call: the server's own words. Several: the same words for the whole selection.
  return imageIds.length > MAX_IDS_PER_CALL ? { message: `${imageIds.length} images deleted successfully.` } : answer;
}

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
    mutationFn: (imageIds: string[]) => deleteInSlices(imageIds, (slice) => callApi(calls.deleteImages, { body: { imageIds: slice } })),
    onSuccess: (_answer, imageIds) => {
      const removed = new Set(imageIds);
      queryClient.setQueriesData<TimelineMonthPage>({ queryKey: timelineMonthsQueryKey }, (page) =>
        page && page.images.some((image) => removed.has(image._id)) ? { ...page, images: page.images.filter((image) => !removed.has(image._id)) } : page,
      );
      return queryClient.invalidateQueries();
    },
    // Some slices went before one was refused: what is on screen is out of date.
    onError: (error) => (typeof error === 'object' && error !== null && 'deletedBefore' in error ? queryClient.invalidateQueries() : undefined),
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
