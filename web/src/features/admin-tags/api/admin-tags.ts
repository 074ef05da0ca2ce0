import { calls, texts } from '@photo/contract';
import { toast } from 'react-toastify';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, isNotFound } from '@/lib/api-client';

const adminTagsQueryKey = ['admin-tags'] as const;

export const adminTagsQueryOptions = () =>
  queryOptions({
    queryKey: adminTagsQueryKey,
    queryFn: async ({ signal }): Promise<string[]> => {
      try {
        return await callApi(calls.adminTags, { signal });
      } catch (error) {
        if (isNotFound(error)) return [];
        throw error;
      }
    },
  });

export function useAdminTags(enabled: boolean) {
  return useQuery({ ...adminTagsQueryOptions(), enabled });
}

export type TagEdit = { oldTagValue: string; newTagValue: string; mergeInto?: string };

/** Spec §4: a rename onto an existing tag (case-insensitively) is a merge. */
export function useEditTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ oldTagValue, newTagValue, mergeInto }: TagEdit) => {
      if (mergeInto !== undefined) {
        await callApi(calls.adminMergeTags, { body: { oldTagValue, existingTagValue: mergeInto } });
        return 'merged' as const;
      }
      await callApi(calls.adminUpdateTag, { body: { oldTagValue, newTagValue } });
      return 'renamed' as const;
    },
    // The list changes at once (a merged tag disappears, a renamed one takes its new name), then
    // is read again: the server trims and lower-cases what it stores.
    // The toasts live here, not with the edited box: a renamed or merged tag's box is gone by then.
    onSuccess: (result, { oldTagValue, newTagValue }) => {
      toast.success(result === 'merged' ? texts.TAGS_MERGED : texts.TAG_SAVED);
      queryClient.setQueryData<string[]>(adminTagsQueryKey, (tags) =>
        tags?.flatMap((tag) => (tag !== oldTagValue ? [tag] : result === 'merged' ? [] : [newTagValue])),
      );
    },
    onError: (error) => {
      console.error('Error updating tag:', error);
      toast.error(texts.TAG_UPDATE_FAILED);
    },
    // Every other tag list and image shows the new names too.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
