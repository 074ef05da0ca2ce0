import { calls } from '@photo/contract';
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { galleryQueryKey } from '@/lib/images';
import type { GalleryPage } from './get-gallery';
import { withoutImages } from './without-images';

/** The contract's bound on imageIds in one tag call. */
const MAX_IDS_PER_CALL = 1000;

/**
 * Every list but the loaded gallery pages, which would refetch page by page (hundreds of calls
 * after a long scroll). The gallery does not show tags, and deletions are applied to it directly.
 */
function refreshAllButGallery(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    predicate: (query) => !(query.queryKey.length === galleryQueryKey.length && query.queryKey[0] === galleryQueryKey[0]),
  });
}

/** Deleted images leave the loaded gallery at once; the other lists refetch. */
export function useDeleteImages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (imageIds: string[]) => callApi(calls.deleteImages, { body: { imageIds } }),
    onSuccess: (_answer, imageIds) => {
      const removed = new Set(imageIds);
      queryClient.setQueryData<InfiniteData<GalleryPage, number>>(galleryQueryKey, (data) => (data ? withoutImages(data, removed) : data));
      return refreshAllButGallery(queryClient);
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
    onSuccess: () => refreshAllButGallery(queryClient),
  });
}
