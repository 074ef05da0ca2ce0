import { calls } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

export const imageQueryKey = (id: string) => ['image', id] as const;

export const imageQueryOptions = (id: string) =>
  queryOptions({
    queryKey: imageQueryKey(id),
    queryFn: ({ signal }) => callApi(calls.getImage, { params: { id }, signal }),
  });

export function useImage(id: string) {
  return useQuery(imageQueryOptions(id));
}
