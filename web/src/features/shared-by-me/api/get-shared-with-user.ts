import { calls } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { sharingQueryKeys } from '@/lib/share-images';

/** A read that the spec makes a POST (the name travels in the body). */
export const sharedWithUserQueryOptions = (userName: string) =>
  queryOptions({
    queryKey: sharingQueryKeys.sharedWithUser(userName),
    queryFn: ({ signal }) => callApi(calls.sharedWithUser, { body: { userName }, signal }),
  });

export function useSharedWithUser(userName: string) {
  return useQuery(sharedWithUserQueryOptions(userName));
}
