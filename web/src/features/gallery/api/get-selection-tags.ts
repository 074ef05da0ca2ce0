import { calls } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

/** The contract's bound on imageIds in one POST /tags. */
const MAX_IDS = 1000;

export const selectionTagsQueryOptions = (imageIds: readonly string[]) =>
  queryOptions({
    queryKey: ['tags', 'selection', [...imageIds].sort()],
    queryFn: async ({ signal }) => (await callApi(calls.tagsOfSelection, { body: { imageIds: [...imageIds] }, signal })).commantags,
  });

/**
 * The tags every selected image already has (POST /tags, `commantags`); none while unknown, for a
 * selection over the call's bound, or when the call fails (a hint, not worth an error).
 */
export function useCommonTags(imageIds: readonly string[]): string[] {
  const enabled = imageIds.length > 0 && imageIds.length <= MAX_IDS;
  const result = useQuery({ ...selectionTagsQueryOptions(imageIds), enabled, retry: false });
  return enabled ? (result.data ?? []) : [];
}
