import { calls } from '@photo/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, isNotFound } from '@/lib/api-client';
import { imageQueryKey } from './get-image';

export function useLikeImage(id: string) {
  return useMutation({
    mutationFn: (liked: boolean) => callApi(calls.likeImage, { params: { id }, body: { liked } }),
  });
}

export function useAddTagToImage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tag: string) => callApi(calls.addTagToImage, { params: { id }, body: { tag } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: imageQueryKey(id) }),
    // Spec §8: tag-add failures are only logged.
    onError: (error) => console.error('Error adding tag:', error),
  });
}

const inPhotoQueryKey = (id: string) => ['image', id, 'in-photo'] as const;

/** Whether I marked myself in this photo; unknown (false) while that call does not exist. */
export function useIsUserInPhoto(id: string) {
  return useQuery({
    queryKey: inPhotoQueryKey(id),
    queryFn: async ({ signal }) => {
      try {
        return (await callApi(calls.isUserInPhoto, { params: { id }, signal })).isUserInPhoto;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
  });
}

export function useMarkInPhoto(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(calls.markInPhoto, { body: { imageId: id } }),
    onSuccess: () => queryClient.setQueryData(inPhotoQueryKey(id), true),
    onError: (error) => console.error('Error marking you in the photo:', error),
  });
}
