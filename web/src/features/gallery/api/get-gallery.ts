import { calls, type Image } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, isAbortError, isNotFound } from '@/lib/api-client';
import { revocableQueryOptions } from '@/lib/live-queries';

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
