import { calls, type BodyInputOf, type Image } from '@photo/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, isNotFound } from '@/lib/api-client';
import { revocableQueryOptions } from '@/lib/live-queries';

const searchQueryKey = (query: string) => ['search', query] as const;

/** The images carrying the searched tag; none (also on a 404, spec §8) means "No results found". */
export const searchResultsQueryOptions = (query: string) =>
  queryOptions({
    queryKey: searchQueryKey(query),
    queryFn: async ({ signal }): Promise<Image[]> => {
      try {
        return (await callApi(calls.headerSearchTags, { body: { query }, signal })).images ?? [];
      } catch (error) {
        if (isNotFound(error)) return [];
        throw error;
      }
    },
  });

export function useSearchResults(query: string) {
  return useQuery({ ...searchResultsQueryOptions(query), ...revocableQueryOptions });
}

export function useAddCustomTags(query: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyInputOf<typeof calls.addUserTags>) => callApi(calls.addUserTags, { body }),
    // The results show the new tags; the detail, the profile and the tag lists hold them too.
    onSuccess: () =>
      Promise.all(
        [searchQueryKey(query), ['image'], ['profile'], ['tags'], ['tag-suggestions']].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}
