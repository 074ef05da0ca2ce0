import { unconfirmedSharesText, useUnconfirmedEmail } from '@/lib/address-proofs';

/**
 * Under an empty list of shared photos: says that nothing shared shows until the signed-in
 * person confirms their address. Nothing when the address is confirmed (or not known yet).
 */
export function UnconfirmedAddressNote() {
  const email = useUnconfirmedEmail();
  if (!email) return null;
  return <p className="text-sm text-amber-800">{unconfirmedSharesText(email)}</p>;
}
