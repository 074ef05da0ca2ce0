import { calls } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi, isAbortError, isNotFound } from '@/lib/api-client';

/** Spec §8: profile failures are only logged; a call not built yet (404) simply means none. */
async function orEmpty<T>(load: () => Promise<T[]>, what: string): Promise<T[]> {
  try {
    return await load();
  } catch (error) {
    if (isAbortError(error)) throw error;
    if (!isNotFound(error)) console.error(`Error fetching ${what}:`, error);
    return [];
  }
}

export const likedImagesQueryOptions = () =>
  queryOptions({
    queryKey: ['profile', 'liked-images'],
    queryFn: ({ signal }) =>
      orEmpty(async () => (await callApi(calls.myLikedImages, { signal })).data, 'favorite images'),
  });

export const taggedImagesQueryOptions = () =>
  queryOptions({
    queryKey: ['profile', 'tagged-images'],
    queryFn: ({ signal }) =>
      orEmpty(async () => (await callApi(calls.getMyTaggedImages, { signal })).data, 'tagged images'),
  });

export const useLikedImages = () => useQuery(likedImagesQueryOptions());
export const useTaggedImages = () => useQuery(taggedImagesQueryOptions());

/** The tags this person has used (GET /user-tags), for the Filter By list. */
export const userTagsQueryOptions = () =>
  queryOptions({
    queryKey: ['profile', 'user-tags'],
    queryFn: ({ signal }) => orEmpty(async () => (await callApi(calls.getUserTags, { signal })).data, 'your tags'),
  });

export const useUserTags = () => useQuery(userTagsQueryOptions());
