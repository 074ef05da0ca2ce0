import { calls, TRASH_PAGE_SIZE, type ResponseOf } from '@photo/contract';
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

export type TrashPage = ResponseOf<typeof calls.listTrash>;

export const trashQueryKey = ['trash'] as const;

export const trashQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: trashQueryKey,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }): Promise<TrashPage> =>
      callApi(calls.listTrash, { query: { page: pageParam, limit: TRASH_PAGE_SIZE }, signal }),
    getNextPageParam: (last) => (last.pagination.hasMore ? last.pagination.currentPage + 1 : undefined),
  });

export function useTrash() {
  return useInfiniteQuery(trashQueryOptions());
}

/**
 * Restoring puts images back into every list (gallery, search, shares, tags), deleting for good
 * only changes the Trash: either way every cached list is read again, as after a delete.
 */
function useTrashAction<T>(run: (imageIds: T) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export const useRestore = () => useTrashAction((imageIds: string[]) => callApi(calls.restoreTrash, { body: { imageIds } }));
export const useDeleteForever = () =>
  useTrashAction((imageIds: string[]) => callApi(calls.deleteTrashForever, { body: { imageIds } }));
export const useEmptyTrash = () => useTrashAction((_: void) => callApi(calls.emptyTrash));
