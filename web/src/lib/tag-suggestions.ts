import { calls, MAX_TAG_LENGTH } from '@photo/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { useDebouncedValue } from '@/hooks/use-debounced-value';

/** One cache for every tag box: the header search, Add Tags and the detail's tag input ask the same call. */
export const tagSuggestionsQueryOptions = (query: string) =>
  queryOptions({
    queryKey: ['tag-suggestions', query],
    queryFn: ({ signal }) => callApi(calls.searchSuggestions, { query: { query }, signal }),
    staleTime: 60_000,
  });

/**
 * Spec §5: tag suggestions, best first (the server ranks them), once the trimmed text has
 * `minLength` characters (3 for the header search, 2 for the detail's tag input, 1 for the bulk
 * input); failures show none. While the answer for the latest text is on its way, the previous
 * answer stays, narrowed to what is typed, so Tab and Enter never wait for the server. Text longer
 * than a tag can be matches none, and is not asked about (the call refuses it with a 400).
 */
export function useTagSuggestions(text: string, minLength: number, debounceMs = 120): string[] {
  const query = text.trim().toLowerCase();
  const asked = useDebouncedValue(query, debounceMs);
  const result = useQuery({
    ...tagSuggestionsQueryOptions(asked),
    enabled: asked.length >= minLength && asked.length <= MAX_TAG_LENGTH,
    placeholderData: keepPreviousData,
  });
  if (query.length < minLength || query.length > MAX_TAG_LENGTH || !result.data) return [];
  const fresh = asked === query && !result.isPlaceholderData;
  return fresh ? result.data : result.data.filter((suggestion) => suggestion.toLowerCase().startsWith(query));
}
