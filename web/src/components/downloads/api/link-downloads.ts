import { calls, buildPath } from '@photo/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

export const linkDownloadsQueryKey = (link: string) => ['downloads', 'link', link] as const;
export const downloadSettingsQueryKey = ['downloads', 'settings'] as const;

/** Whether a share-all link's page may download (public, no sign-in). */
export function useLinkDownloads(link: string) {
  return useQuery({
    queryKey: linkDownloadsQueryKey(link),
    queryFn: ({ signal }) => callApi(calls.linkDownloads, { params: { link }, signal }),
    retry: false,
  });
}

/** Plain URLs: on the public page the link's token is the credential, and dies with the link. */
export const linkZipUrl = (link: string) => buildPath(calls.linkDownloadAll.path, { link });
export const linkOriginalUrl = (link: string, id: string) => buildPath(calls.linkDownloadOriginal.path, { link, id });

/** The owner's switch per all-access record. */
export function useDownloadSettings() {
  return useQuery({
    queryKey: downloadSettingsQueryKey,
    queryFn: ({ signal }) => callApi(calls.getDownloadSettings, { signal }),
  });
}

export function useSetAllowDownloads() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, allow }: { id: string; allow: boolean }) => callApi(calls.setAllowDownloads, { params: { id }, body: { allow } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: downloadSettingsQueryKey }),
  });
}
