import { calls, images as imageContract, type Image } from '@photo/contract';
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { callApi, isAbortError, isNotFound } from '@/lib/api-client';
import { galleryQueryKey } from '@/lib/images';
import { isRefreshing, revocableQueryOptions } from '@/lib/live-queries';

export type GalleryPage = {
  images: Image[];
  hasMore: boolean;
  page: number;
  /** A page left short by a deletion: the next load asks for the same page number again (see withoutImages). */
  refill?: boolean;
};


async function loadPage(page: number, signal: AbortSignal, refreshing: boolean): Promise<GalleryPage> {
  try {
    const answer = await callApi(calls.getGridImages, {
      query: { page, limit: imageContract.GALLERY_PAGE_SIZE },
      signal,
    });
    return { images: answer.images, hasMore: answer.pagination?.hasMore ?? false, page };
  } catch (error) {
    if (isAbortError(error)) throw error;
    // Spec §8: a gallery load failure empties the list (a 404 just means nothing yet).
    if (!isNotFound(error)) console.error('Error fetching images:', error);
    // A failed periodic refresh keeps the pages on screen (the query keeps its data on error).
    if (refreshing && !isNotFound(error)) throw error;
    return { images: [], hasMore: false, page };
  }
}

/** Spec §9: pages of 50, the next one requested as the reader nears the bottom. */
export const galleryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: galleryQueryKey,
    queryFn: ({ pageParam, signal, client }) => loadPage(pageParam, signal, isRefreshing(client, galleryQueryKey)),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? (last.refill ? last.page : last.page + 1) : undefined),
  });

/** Read again every 30 s while visible (every loaded page), so images whose share was switched off vanish. */
export function useGallery() {
  return useInfiniteQuery({ ...galleryQueryOptions(), ...revocableQueryOptions });
}

/** Spec §4 Tag filter: with tags chosen, results come from the whole library, not the loaded pages. */
export const taggedImagesQueryOptions = (tags: string[]) =>
  queryOptions({
    queryKey: ['gallery', 'by-tags', [...tags].sort()],
    queryFn: async ({ signal }): Promise<Image[]> => {
      try {
        return (await callApi(calls.headerSearchTags, { body: { query: tags }, signal })).images ?? [];
      } catch (error) {
        // Spec §7: no match may come as a 404 'No images found'; any other failure is logged and
        // the screen goes back to the loaded list (spec §4).
        if (isNotFound(error)) return [];
        if (!isAbortError(error)) console.error('Error filtering by tags:', error);
        throw error;
      }
    },
  });

export function useImagesWithTags(tags: string[]) {
  return useQuery({ ...taggedImagesQueryOptions(tags), ...revocableQueryOptions, enabled: tags.length > 0, retry: false });
}

export const existingTagsQueryOptions = () =>
  queryOptions({
    queryKey: ['tags', 'existing'],
    queryFn: async ({ signal }) => {
      try {
        return (await callApi(calls.getExistingTags, { signal })).tags;
      } catch (error) {
        if (isAbortError(error)) throw error;
        if (!isNotFound(error)) console.error('Error fetching tags:', error);
        return [];
      }
    },
  });

export function useExistingTags(enabled = true) {
  return useQuery({ ...existingTagsQueryOptions(), enabled });
}
