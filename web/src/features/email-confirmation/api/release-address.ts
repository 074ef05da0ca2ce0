import { calls, type AddressProof } from '@photo/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addressProofQueryKey } from '@/lib/address-proofs';
import { callApi } from '@/lib/api-client';

/**
 * "This isn't my account": the unconfirmed account someone else created with this address loses
 * it (and its sessions). The address is then free, so the link now leads to sign-up.
 */
export function useReleaseAddress(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(calls.releaseAddress, { params: { token } }),
    onSuccess: () =>
      queryClient.setQueryData<AddressProof>(addressProofQueryKey(token), (proof) =>
        proof ? { ...proof, state: 'signup', account: null } : proof,
      ),
  });
}
