import { calls, tags } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

export const searchSuggestionsQueryOptions = (query: string) =>
  queryOptions({
    queryKey: ['search-suggestions', query],
    queryFn: ({ signal }) => callApi(calls.searchSuggestions, { query: { query }, signal }),
    staleTime: 60_000,
  });

/** Spec §5: suggestions only for a trimmed query of 3 or more characters; failures show none. */
export function useSearchSuggestions(text: string) {
  const query = text.trim();
  const result = useQuery({
    ...searchSuggestionsQueryOptions(query),
    enabled: query.length >= tags.SEARCH_SUGGESTION_MIN,
  });
  return result.data ?? [];
}
