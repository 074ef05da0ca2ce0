import { calls, normalizeTag, type Image } from '@photo/contract';
import { useMemo } from 'react';
import { useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi, isNotFound } from '@/lib/api-client';
import { imageQueryKey } from './get-image';

/** Lists elsewhere that show likes, tags or presence; they refetch when next shown. */
const favouritesQueryKey = ['profile', 'liked-images'] as const;
/** The profile's tagged images and the person's own tags. */
const profileListsQueryKey = ['profile'] as const;
const photosImInQueryKey = ['photos-im-in'] as const;

export function useLikeImage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (liked: boolean) => callApi(calls.likeImage, { params: { id }, body: { liked } }),
    onSuccess: (answer) => {
      // The server's record replaces the local one (spec §4), here and in the cached image.
      queryClient.setQueryData<Image>(imageQueryKey(id), (image) => (image ? { ...image, likes: answer.likes, liked: answer.liked } : image));
      return queryClient.invalidateQueries({ queryKey: favouritesQueryKey });
    },
  });
}

const addTagMutationKey = (id: string) => ['image', id, 'add-tag'] as const;

export function useAddTagToImage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: addTagMutationKey(id),
    // Kept for the whole visit (not 5 minutes): useTagsIAdded reads the tags added here from them.
    gcTime: Infinity,
    mutationFn: (tag: string) => callApi(calls.addTagToImage, { params: { id }, body: { tag } }),
    onSuccess: ({ tags }) => {
      queryClient.setQueryData<Image>(imageQueryKey(id), (image) => (image ? { ...image, tags } : image));
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: imageQueryKey(id), exact: true }),
        queryClient.invalidateQueries({ queryKey: profileListsQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['tags'] }),
        queryClient.invalidateQueries({ queryKey: ['tag-suggestions'] }),
      ]);
    },
    // Spec §8: tag-add failures are only logged.
    onError: (error) => console.error('Error adding tag:', error),
  });
}

/**
 * The tags (as stored) this person added to the image in this visit. The image JSON does not say
 * who added a tag, but the server lets whoever added one remove it, so these may be removed too.
 */
export function useTagsIAdded(id: string): ReadonlySet<string> {
  const added = useMutationState({
    filters: { mutationKey: addTagMutationKey(id), status: 'success' },
    select: (mutation) => mutation.state.variables,
  });
  return useMemo(() => new Set(added.filter((tag) => typeof tag === 'string').map(normalizeTag)), [added]);
}

/**
 * POST /remove-tag for one tag. The server allows whoever added the tag there, the uploader or an
 * admin, and answers anyone else 404 with a message that says so.
 */
export function useRemoveTag(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tag: string) => callApi(calls.removeTag, { body: { tagName: [tag], imageId: id } }),
    onSuccess: (_answer, tag) => {
      queryClient.setQueryData<Image>(imageQueryKey(id), (image) => (image ? { ...image, tags: image.tags.filter((t) => t !== tag) } : image));
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: imageQueryKey(id), exact: true }),
        queryClient.invalidateQueries({ queryKey: profileListsQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['tags'] }),
        queryClient.invalidateQueries({ queryKey: ['tag-suggestions'] }),
      ]);
    },
    onError: (error) => console.error('Error removing tag:', error),
  });
}

const inPhotoQueryKey = (id: string) => ['image', id, 'in-photo'] as const;
const taggedUsersQueryKey = (id: string) => ['image', id, 'people'] as const;

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

/** The names of the people marked in the photo (GET /getTaggedUser/{id}); none when unknown. */
export function useTaggedUsers(id: string) {
  return useQuery({
    queryKey: taggedUsersQueryKey(id),
    queryFn: async ({ signal }) => {
      try {
        return await callApi(calls.getTaggedUsers, { params: { id }, signal });
      } catch (error) {
        if (isNotFound(error)) return [];
        throw error;
      }
    },
  });
}

export function useMarkInPhoto(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(calls.markInPhoto, { body: { imageId: id } }),
    onSuccess: () => {
      queryClient.setQueryData(inPhotoQueryKey(id), true);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: taggedUsersQueryKey(id) }),
        queryClient.invalidateQueries({ queryKey: photosImInQueryKey }),
      ]);
    },
    onError: (error) => console.error('Error marking you in the photo:', error),
  });
}
