import { calls, type ResponseOf } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, isNotFound } from '@/lib/api-client';
import { revocableQueryOptions } from '@/lib/live-queries';

export type SharedWithMe = ResponseOf<typeof calls.getSharedWithMe>;

const NO_ACCESS: SharedWithMe = { hasAccess: false, data: { sharedBy: [] }, userAccessData: [] };

export const sharedWithMeQueryOptions = () =>
  queryOptions({
    queryKey: ['shared-with-me'],
    // Read again on every visit: a tag or like given in the detail view shows on the way back.
    staleTime: 0,
    queryFn: async ({ signal }) => {
      try {
        return await callApi(calls.getSharedWithMe, { signal });
      } catch (error) {
        // Nothing shared (or the call not there yet) is the same as no access for this screen.
        if (isNotFound(error)) return NO_ACCESS;
        throw error;
      }
    },
  });

/** Read again every 30 s while visible: a share switched off disappears from an open tab. */
export function useSharedWithMe() {
  return useQuery({ ...sharedWithMeQueryOptions(), ...revocableQueryOptions });
}
