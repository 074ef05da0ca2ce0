import { calls } from '@photo/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from './api-client';
import { useCurrentUser } from './auth';
import { getToken } from './auth-token';

/**
 * Proving an e-mail address: a share reaches an account only once the account has opened a link
 * mailed to that address. Kept here because the confirmation page, the sign-up form and the
 * share-all page all read a link's proof, and features do not import each other.
 */

export const addressProofQueryKey = (token: string) => ['address-proof', token] as const;

/** Matches every proof in the cache, to leave them out when everything else is read again. */
export const isAddressProofQuery = (queryKey: readonly unknown[]) => queryKey[0] === 'address-proof';

/** What a mailed link proves (a 404 when it is unknown, used or expired). */
export const addressProofQueryOptions = (token: string) =>
  queryOptions({
    queryKey: addressProofQueryKey(token),
    queryFn: ({ signal }) => callApi(calls.getAddressProof, { params: { token }, signal }),
  });

export function useAddressProof(token: string, enabled = true) {
  return useQuery({ ...addressProofQueryOptions(token), enabled: enabled && token !== '' });
}

export function sameAddress(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * The signed-in person's address while it is not confirmed yet, else null (also while unknown).
 * Reads the header's query (`/api/users/me`), so it costs no request of its own.
 */
export function useUnconfirmedEmail(): string | null {
  const me = useCurrentUser();
  if (getToken() === null || !me.data || me.data.emailConfirmed) return null;
  return me.data.email;
}

/** Why a list of shared photos is empty for an account that has not opened its confirmation link. */
export function unconfirmedSharesText(email: string): string {
  return `Photos shared with ${email} show here once you confirm that address: open the link we mailed to it.`;
}
