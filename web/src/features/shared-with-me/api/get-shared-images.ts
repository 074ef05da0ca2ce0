import { calls } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { revocableQueryOptions } from '@/lib/live-queries';

export const sharedImagesQueryOptions = () =>
  queryOptions({
    queryKey: ['shared-images'],
    queryFn: ({ signal }) => callApi(calls.getSharedImages, { signal }),
  });

export function useSharedImages() {
  return useQuery({ ...sharedImagesQueryOptions(), ...revocableQueryOptions });
}
