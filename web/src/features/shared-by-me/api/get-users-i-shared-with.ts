import { calls, type ResponseOf } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, isAbortError, isNotFound } from '@/lib/api-client';
import { sharingQueryKeys } from '@/lib/share-images';

type UsersISharedWith = ResponseOf<typeof calls.usersISharedWith>;

export const usersISharedWithQueryOptions = () =>
  queryOptions({
    queryKey: sharingQueryKeys.usersISharedWith,
    queryFn: async ({ signal }): Promise<UsersISharedWith> => {
      try {
        return await callApi(calls.usersISharedWith, { signal });
      } catch (error) {
        if (isAbortError(error)) throw error;
        // Spec §8: any failure, including 401, is treated as no shares (404: none yet, nothing to log).
        if (!isNotFound(error)) console.error('Error fetching users I shared with:', error);
        return { sharedUsers: [], count: 0 };
      }
    },
  });

export function useUsersISharedWith() {
  return useQuery(usersISharedWithQueryOptions());
}
