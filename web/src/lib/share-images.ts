import { calls } from '@photo/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from './api-client';

/** Spec §5: addresses entered comma-separated and trimmed. */
export function parseEmails(text: string): string[] {
  return text
    .split(',')
    .map((email) => email.trim())
    .filter(Boolean);
}

/** Selective Access: share chosen images by e-mail (the gallery's selection, or one image from its detail). */
export function useShareRestricted() {
  return useMutation({
    mutationFn: (body: { imageIds: string[]; emails: string[] }) => callApi(calls.shareRestricted, { body }),
  });
}
