import { useEffect, useRef } from 'react';
import type { AddressProof } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/form-field';
import { Loading } from '@/components/ui/spinner';
import { sameAddress } from '@/lib/address-proofs';
import { serverMessage } from '@/lib/api-client';
import { isSignedIn, useCurrentUser } from '@/lib/auth';
import { ConfirmFrame, Emphasis } from './confirm-frame';

export const CONFIRM_FAILED = 'Your address could not be confirmed. Please try again.';
export const RELEASE_FAILED = 'The address could not be taken off that account. Please try again.';

type Action = { run: () => void; pending: boolean; error: unknown };

type PendingProofProps = { proof: AddressProof; confirm: Action; release: Action };

function createdOn(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'long' });
}

/**
 * An unconfirmed account holds the link's address. Its owner, signed in, is confirmed at once.
 * Anyone else sees which account it is and confirms with one click — a mail scanner opening the
 * link must not confirm anything — or says it is not theirs, which frees the address.
 */
export function PendingProof({ proof, confirm, release }: PendingProofProps) {
  const signedIn = isSignedIn();
  const me = useCurrentUser();
  const ownAccount = me.data !== undefined && sameAddress(me.data.email, proof.email);

  const autoConfirmed = useRef(false);
  const { run: runConfirm } = confirm;
  useEffect(() => {
    if (!ownAccount || autoConfirmed.current) return;
    autoConfirmed.current = true;
    runConfirm();
  }, [ownAccount, runConfirm]);

  // Signed in: wait to know whose session it is before offering buttons to a possible owner.
  if ((signedIn && me.isPending) || (ownAccount && !confirm.error)) {
    return (
      <ConfirmFrame title="Confirm your e-mail address">
        <Loading text={ownAccount ? 'Confirming your address...' : 'Checking your link...'} />
      </ConfirmFrame>
    );
  }

  const busy = confirm.pending || release.pending;
  const errorText = confirm.error
    ? (serverMessage(confirm.error) ?? CONFIRM_FAILED)
    : release.error
      ? (serverMessage(release.error) ?? RELEASE_FAILED)
      : null;

  return (
    <ConfirmFrame title="Confirm your e-mail address">
      <p>
        The address <Emphasis>{proof.email}</Emphasis> belongs to{' '}
        {proof.account ? (
          <>
            an account named <Emphasis>{proof.account.username}</Emphasis>, created {createdOn(proof.account.createdAt)}.
          </>
        ) : (
          'an account that has not confirmed it yet.'
        )}
      </p>
      <p>Is this your account? Confirming lets photos shared with this address show in it.</p>
      <FormError>{errorText}</FormError>
      <div className="flex flex-wrap gap-2">
        <Button onClick={confirm.run} disabled={busy}>
          {confirm.pending ? 'Confirming...' : 'Confirm my address'}
        </Button>
        <Button variant="secondary" onClick={release.run} disabled={busy}>
          This isn't my account
        </Button>
      </div>
      <p className="text-sm text-slate-500">
        Not yours? Then someone else signed up with your address. We take it off their account, and you can sign up
        with it yourself.
      </p>
    </ConfirmFrame>
  );
}
