import { calls } from '@photo/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

/** Spec §7: multipart with the field `images` repeated once per file. */
function uploadImages(files: File[]) {
  const form = new FormData();
  for (const file of files) form.append('images', file);
  return callApi(calls.bulkUpload, { body: form });
}

export function useBulkUpload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadImages,
    // New images change the gallery, the profile and every list; let them all refetch.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
