import { calls, type Image } from '@photo/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, isNotFound } from '@/lib/api-client';

/** Lists whose call is not there yet (404) are simply empty. */
async function imagesOrNone(load: () => Promise<{ images: Image[] }>): Promise<Image[]> {
  try {
    return (await load()).images;
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

export const libraryQueryOptions = (search: string) =>
  queryOptions({
    queryKey: ['library', search],
    queryFn: ({ signal }) =>
      imagesOrNone(() =>
        search ? callApi(calls.searchImages, { query: { query: search }, signal }) : callApi(calls.getLibrary, { signal }),
      ),
  });

/** The library, or the images matching `search` when there is one. */
export function useLibrary(search: string) {
  return useQuery({ ...libraryQueryOptions(search.trim()), placeholderData: keepPreviousData });
}

export const allImagesQueryOptions = () =>
  queryOptions({
    queryKey: ['images', 'all'],
    queryFn: ({ signal }) => imagesOrNone(() => callApi(calls.getGridImages, { signal })),
  });

export function useAllImages() {
  return useQuery(allImagesQueryOptions());
}
