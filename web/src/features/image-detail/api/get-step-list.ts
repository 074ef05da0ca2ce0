import { calls } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, isAbortError, isNotFound } from '@/lib/api-client';
import { isShownInGallery } from '@/lib/images';

/**
 * Ids of every image the gallery shows, in its order (spec §7: GET /api/gridimages without page,
 * "used for prev/next list"). Only ids are kept: the list can hold thousands of images.
 */
export const galleryIdsQueryOptions = () =>
  queryOptions({
    queryKey: ['image-detail', 'gallery-ids'],
    queryFn: async ({ signal }) => {
      try {
        const { images } = await callApi(calls.getGridImages, { signal });
        return images.filter(isShownInGallery).map((image) => image._id);
      } catch (error) {
        if (isNotFound(error)) return [];
        // Spec §8: logged only; the detail then simply offers no previous/next.
        if (!isAbortError(error)) console.error('Error fetching the image list:', error);
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });

/** The ids ← and → step through: the list the opening screen handed over, else the whole gallery. */
export function useStepList(handed: string[] | undefined): string[] {
  const gallery = useQuery({ ...galleryIdsQueryOptions(), enabled: handed === undefined });
  return handed ?? gallery.data ?? [];
}
