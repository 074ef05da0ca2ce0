import { calls } from '@photo/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

/** Deleting or tagging changes every list an image can appear in, so all of them refetch. */
function useRefreshAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

export function useDeleteImages() {
  const refreshAll = useRefreshAll();
  return useMutation({
    mutationFn: (imageIds: string[]) => callApi(calls.deleteImages, { body: { imageIds } }),
    onSuccess: refreshAll,
  });
}

export function useAddTags() {
  const refreshAll = useRefreshAll();
  return useMutation({
    mutationFn: (body: { tags: string[]; imageIds: string[] }) => callApi(calls.addTags, { body }),
    onSuccess: refreshAll,
  });
}

export function useShareRestricted() {
  return useMutation({
    mutationFn: (body: { imageIds: string[]; emails: string[] }) => callApi(calls.shareRestricted, { body }),
  });
}
