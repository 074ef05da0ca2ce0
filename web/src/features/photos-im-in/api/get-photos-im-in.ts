import { calls, type ResponseOf } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, isNotFound } from '@/lib/api-client';

type TaggedInPhotos = ResponseOf<typeof calls.photosUserTaggedIn>['data'];

export const photosImInQueryOptions = () =>
  queryOptions({
    queryKey: ['photos-im-in'],
    queryFn: async ({ signal }): Promise<TaggedInPhotos> => {
      try {
        return (await callApi(calls.photosUserTaggedIn, { signal })).data;
      } catch (error) {
        if (isNotFound(error)) return [];
        throw error;
      }
    },
  });

export function usePhotosImIn() {
  return useQuery(photosImInQueryOptions());
}
