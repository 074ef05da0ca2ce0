import { calls } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

/** A read that the spec makes a POST (the name travels in the body). */
export const sharedWithUserQueryOptions = (userName: string) =>
  queryOptions({
    queryKey: ['shared-with-user', userName],
    queryFn: ({ signal }) => callApi(calls.sharedWithUser, { body: { userName }, signal }),
  });

export function useSharedWithUser(userName: string) {
  return useQuery(sharedWithUserQueryOptions(userName));
}
