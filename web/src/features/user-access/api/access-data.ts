import { calls, type AccessType, type ResponseOf } from '@photo/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, isNotFound } from '@/lib/api-client';
import { sharingQueryKeys } from '@/lib/share-images';

type AccessData = ResponseOf<typeof calls.getUserAccessData>;
export type AccessRecord = AccessData['allAccessUserData'][number];

const accessDataQueryKey = sharingQueryKeys.accessData;

export const accessDataQueryOptions = () =>
  queryOptions({
    queryKey: accessDataQueryKey,
    queryFn: async ({ signal }): Promise<AccessData> => {
      try {
        return await callApi(calls.getUserAccessData, { signal });
      } catch (error) {
        if (isNotFound(error)) return { allAccessUserData: [], restrictedAccessUserData: [] };
        throw error;
      }
    },
  });

export function useAccessData() {
  return useQuery(accessDataQueryOptions());
}

/** Spec §4: the list changes only after the server confirms; failures are only logged (§8). */
export function useUpdateUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status, type }: { id: string; status: boolean; type: AccessType }) =>
      callApi(calls.updateUserStatus, { params: { id }, body: { status, type } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessDataQueryKey }),
    onError: (error) => console.error('Error updating user status:', error),
  });
}
