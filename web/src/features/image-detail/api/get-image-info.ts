import { calls } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

export const imageInfoQueryKey = (id: string) => ['image-info', id] as const;

export const imageInfoQueryOptions = (id: string) =>
  queryOptions({
    queryKey: imageInfoQueryKey(id),
    queryFn: ({ signal }) => callApi(calls.getImageInfo, { params: { id }, signal }),
    // What the camera recorded does not change; a few minutes keeps stepping back and forth cheap.
    staleTime: 5 * 60_000,
  });

/** The info panel's facts of one image; asked only while the panel is open (it alone mounts this). */
export function useImageInfo(id: string) {
  return useQuery(imageInfoQueryOptions(id));
}
