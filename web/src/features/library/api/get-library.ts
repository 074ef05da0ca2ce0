import { calls, images as imageContract, type Image } from '@photo/contract';
import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { callApi, isNotFound } from '@/lib/api-client';
import { revocableQueryOptions } from '@/lib/live-queries';

/** Lists whose call is not there yet (404) are simply empty. */
async function imagesOrNone<T extends { images: Image[] }>(load: () => Promise<T>): Promise<Image[]> {
  try {
    return (await load()).images;
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

type LibraryPage = { images: Image[]; hasMore: boolean; page: number };

async function loadLibraryPage(page: number, signal: AbortSignal): Promise<LibraryPage> {
  try {
    const answer = await callApi(calls.getLibrary, { query: { page, limit: imageContract.GALLERY_PAGE_SIZE }, signal });
    return { images: answer.images, hasMore: answer.pagination?.hasMore ?? false, page };
  } catch (error) {
    if (isNotFound(error)) return { images: [], hasMore: false, page };
    throw error;
  }
}

/** The library in pages of 50, like the gallery: a library of any size loads as the reader scrolls. */
export const libraryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['library', 'pages'],
    queryFn: ({ pageParam, signal }) => loadLibraryPage(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
  });

export function useLibrary() {
  return useInfiniteQuery({ ...libraryQueryOptions(), ...revocableQueryOptions });
}

export const librarySearchQueryOptions = (search: string) =>
  queryOptions({
    queryKey: ['library', 'search', search],
    queryFn: ({ signal }) => imagesOrNone(() => callApi(calls.searchImages, { query: { query: search }, signal })),
  });

/** The images matching `search`; idle while there is no search text. */
export function useLibrarySearch(search: string) {
  return useQuery({ ...librarySearchQueryOptions(search), ...revocableQueryOptions, enabled: search !== '', placeholderData: keepPreviousData });
}

export const allImagesQueryOptions = () =>
  queryOptions({
    queryKey: ['images', 'all'],
    queryFn: ({ signal }) => imagesOrNone(() => callApi(calls.getGridImages, { signal })),
  });

/** Every image the person may see, newest first (the server caps the list). */
export function useAllImages() {
  return useQuery({ ...allImagesQueryOptions(), ...revocableQueryOptions });
}
