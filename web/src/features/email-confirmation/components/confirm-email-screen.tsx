import { useCallback } from 'react';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { Loading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAddressProof } from '@/lib/address-proofs';
import { isGone } from '@/lib/live-queries';
import { useConfirmAddress } from '../api/confirm-address';
import { useReleaseAddress } from '../api/release-address';
import { ConfirmFrame } from './confirm-frame';
import { continuePath } from './next-path';
import { PendingProof } from './pending-proof';
import { AddressConfirmed, CheckFailed, InvalidLink } from './proof-outcomes';

/**
 * `/confirm-email/:token`, the link in a confirmation or share mail (public, like a password
 * reset link). It asks what the link proves, then: confirms (pending), shows the address as
 * confirmed, hands over to sign-up with the address filled in (no account yet), or says the
 * link is no longer valid.
 */
export function ConfirmEmailScreen() {
  const { token = '' } = useParams();
  const [searchParams] = useSearchParams();
  const requestedNext = searchParams.get('next');
  const proof = useAddressProof(token);
  const confirm = useConfirmAddress(token);
  const release = useReleaseAddress(token);
  const { mutate: confirmMutate } = confirm;
  const { mutate: releaseMutate } = release;
  const runConfirm = useCallback(() => confirmMutate(), [confirmMutate]);
  const runRelease = useCallback(() => releaseMutate(), [releaseMutate]);

  // Checked first: once confirmed the token is used, and reading the proof again would answer 404.
  if (confirm.isSuccess) {
    return <AddressConfirmed email={confirm.data.email} next={continuePath(requestedNext, confirm.data.next)} />;
  }
  if (proof.isPending) {
    return (
      <ConfirmFrame title="Confirm your e-mail address">
        <Loading text="Checking your link..." />
      </ConfirmFrame>
    );
  }
  if (proof.isError) {
    return isGone(proof.error) ? <InvalidLink /> : <CheckFailed onRetry={() => void proof.refetch()} />;
  }

  const found = proof.data;
  switch (found.state) {
    case 'signup':
      return <Navigate to={paths.signup.getHref(token)} replace />;
    case 'confirmed':
      return <AddressConfirmed email={found.email} next={continuePath(requestedNext, found.next)} />;
    case 'pending':
      return (
        <PendingProof
          proof={found}
          confirm={{ run: runConfirm, pending: confirm.isPending, error: confirm.error }}
          release={{ run: runRelease, pending: release.isPending, error: release.error }}
        />
      );
  }
}
