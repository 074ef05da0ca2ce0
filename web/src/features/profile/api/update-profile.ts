import { calls } from '@photo/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/auth';
import { profileQueryKey } from './get-profile';

export type ProfileChanges = { username: string; image: File | null };

/**
 * Spec §5: the name is sent only if non-empty and the picture only if one was chosen.
 * Spec §8: failures are only logged; the caller goes to /profile either way.
 */
async function saveProfile({ username, image }: ProfileChanges): Promise<void> {
  const name = username.trim();
  if (name) {
    try {
      await callApi(calls.updateProfile, { body: { username: name } });
    } catch (error) {
      console.error('Error updating profile:', error);
    }
  }
  if (image) {
    const form = new FormData();
    form.append('profileImage', image);
    try {
      await callApi(calls.uploadProfileImage, { body: form });
    } catch (error) {
      console.error('Error uploading profile image:', error);
    }
  }
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: profileQueryKey }),
        queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
      ]),
  });
}
