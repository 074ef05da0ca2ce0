import { calls, tags } from '@photo/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { useDebouncedValue } from '@/hooks/use-debounced-value';

export const searchSuggestionsQueryOptions = (query: string) =>
  queryOptions({
    queryKey: ['tag-suggestions', query],
    queryFn: ({ signal }) => callApi(calls.searchSuggestions, { query: { query }, signal }),
    staleTime: 60_000,
  });

/**
 * Spec §5: suggestions only for a trimmed query of 3 or more characters; failures show none. While
 * the answer for the latest text is on its way, the previous answer stays, narrowed to what is typed.
 */
export function useSearchSuggestions(text: string): string[] {
  const query = text.trim().toLowerCase();
  const asked = useDebouncedValue(query, 150);
  const result = useQuery({
    ...searchSuggestionsQueryOptions(asked),
    enabled: asked.length >= tags.SEARCH_SUGGESTION_MIN,
    placeholderData: keepPreviousData,
  });
  if (query.length < tags.SEARCH_SUGGESTION_MIN || !result.data) return [];
  const fresh = asked === query && !result.isPlaceholderData;
  return fresh ? result.data : result.data.filter((suggestion) => suggestion.toLowerCase().startsWith(query));
}
