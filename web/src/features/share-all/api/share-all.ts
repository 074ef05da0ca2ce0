import { calls } from '@photo/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { revocableQueryOptions } from '@/lib/live-queries';
import { invalidateSharingLists } from '@/lib/share-images';

export function useShareAll() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => callApi(calls.shareAll, { body: { accessTo: [email] } }),
    onSuccess: () => invalidateSharingLists(queryClient),
  });
}

export const sharedByLinkQueryOptions = (link: string) =>
  queryOptions({
    queryKey: ['shared-images', 'link', link],
    queryFn: ({ signal }) => callApi(calls.getSharedImagesByLink, { params: { link }, signal }),
  });

export function useSharedByLink(link: string) {
  return useQuery({ ...sharedByLinkQueryOptions(link), ...revocableQueryOptions });
}

/** Spec §2 All-access: the page shows the site origin + /share-all/ + the link's last segment. */
export function shareAllUrl(link: string, origin: string = window.location.origin): string {
  const lastSegment = link.split('/').filter(Boolean).pop() ?? '';
  return `${origin}/share-all/${lastSegment}`;
}
