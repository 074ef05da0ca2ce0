import { calls } from '@photo/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { callApi } from './api-client';

/** Spec §5: addresses entered comma-separated and trimmed. */
export function parseEmails(text: string): string[] {
  return text
    .split(',')
    .map((email) => email.trim())
    .filter(Boolean);
}

/**
 * The sharer's own lists that a new share changes. Kept here, not in the features that read them,
 * because both share flows (gallery and all-access) must refresh them and features do not import
 * each other.
 */
export const sharingQueryKeys = {
  accessData: ['user-access-data'] as const,
  usersISharedWith: ['users-i-shared-with'] as const,
  sharedWithUserAll: ['shared-with-user'] as const,
  sharedWithUser: (userName: string) => ['shared-with-user', userName] as const,
};

/** After a share: the access lists and the shared-by-me folders are read again when next shown. */
export function invalidateSharingLists(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: sharingQueryKeys.accessData }),
    queryClient.invalidateQueries({ queryKey: sharingQueryKeys.usersISharedWith }),
    queryClient.invalidateQueries({ queryKey: sharingQueryKeys.sharedWithUserAll }),
  ]);
}

/** Selective Access: share chosen images by e-mail (the gallery's selection, or one image from its detail). */
export function useShareRestricted() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { imageIds: string[]; emails: string[] }) => callApi(calls.shareRestricted, { body }),
    onSuccess: () => invalidateSharingLists(queryClient),
  });
}
