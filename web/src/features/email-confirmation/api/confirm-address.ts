import { calls, type AddressProof } from '@photo/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { addressProofQueryKey, isAddressProofQuery } from '@/lib/address-proofs';
import { callApi } from '@/lib/api-client';

/**
 * Once an address is confirmed, photos shared with it become visible: every list is read again
 * (the header's account too, which hides the notice). The link's own proof is left alone — its
 * token is used now and would answer 404.
 */
export function refreshAfterConfirmation(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => !isAddressProofQuery(query.queryKey) });
}

/** "Confirm my address": confirms the account holding the link's address. */
export function useConfirmAddress(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(calls.confirmAddress, { params: { token } }),
    onSuccess: () => {
      queryClient.setQueryData<AddressProof>(addressProofQueryKey(token), (proof) =>
        proof ? { ...proof, state: 'confirmed' } : proof,
      );
      void refreshAfterConfirmation(queryClient);
    },
  });
}
