import { calls } from '@photo/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { callApi } from '@/lib/api-client';
import { revocableQueryOptions } from '@/lib/live-queries';

export const imageQueryKey = (id: string) => ['image', id] as const;

export const imageQueryOptions = (id: string) =>
  queryOptions({
    queryKey: imageQueryKey(id),
    queryFn: ({ signal }) => callApi(calls.getImage, { params: { id }, signal }),
  });

/** Read again every 30 s while visible: an image whose share was switched off turns into "Image not found". */
export function useImage(id: string) {
  return useQuery({ ...imageQueryOptions(id), ...revocableQueryOptions });
}

/**
 * Loads the neighbours' records and display pictures ahead, so ← and → show the next image at
 * once. Failures are left for the neighbour's own visit to report.
 */
export function usePrefetchImages(ids: readonly (string | undefined)[]): void {
  const queryClient = useQueryClient();
  const key = ids.filter(Boolean).join('\n');
  useEffect(() => {
    for (const id of key ? key.split('\n') : []) {
      queryClient
        .fetchQuery(imageQueryOptions(id))
        .then((image) => {
          if (image.trimmedURL) new Image().src = image.trimmedURL;
        })
        .catch(() => {});
    }
  }, [key, queryClient]);
}
