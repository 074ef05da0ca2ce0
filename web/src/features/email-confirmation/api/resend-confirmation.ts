import { calls } from '@photo/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';

/** Mails the signed-in person a new confirmation link (the server allows a few an hour: 429 after). */
export function useResendConfirmation() {
  return useMutation({ mutationFn: () => callApi(calls.resendConfirmation) });
}
