import { calls, tags } from '@photo/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { useDebouncedValue } from '@/hooks/use-debounced-value';

export const tagSuggestionsQueryOptions = (query: string) =>
  queryOptions({
    queryKey: ['tag-suggestions', query],
    queryFn: ({ signal }) => callApi(calls.searchSuggestions, { query: { query }, signal }),
    staleTime: 60_000,
  });

/**
 * Spec §5: the image-detail tag input suggests from 2 characters, best first (the server ranks them);
 * failures show none. While the answer for the latest text is on its way, the previous answer stays,
 * narrowed to what is typed, so Tab and Enter never wait for the server.
 */
export function useTagSuggestions(text: string): string[] {
  const query = text.trim().toLowerCase();
  const asked = useDebouncedValue(query, 120);
  const result = useQuery({
    ...tagSuggestionsQueryOptions(asked),
    enabled: asked.length >= tags.IMAGE_TAG_SUGGESTION_MIN,
    placeholderData: keepPreviousData,
  });
  if (query.length < tags.IMAGE_TAG_SUGGESTION_MIN || !result.data) return [];
  const fresh = asked === query && !result.isPlaceholderData;
  return fresh ? result.data : result.data.filter((suggestion) => suggestion.toLowerCase().startsWith(query));
}
