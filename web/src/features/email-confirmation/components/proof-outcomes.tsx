import { Button, LinkButton } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useUnconfirmedEmail } from '@/lib/address-proofs';
import { isSignedIn } from '@/lib/auth';
import { ConfirmFrame, Emphasis } from './confirm-frame';
import { ResendButton } from './resend-button';

export const INVALID_LINK_TEXT =
  'This link is not valid any more: it has been used already, it has expired, or a newer link has replaced it.';

/** The address is proven: on to where the link meant to lead, or to sign in. */
export function AddressConfirmed({ email, next }: { email: string; next: string }) {
  const signedIn = isSignedIn();
  return (
    <ConfirmFrame title="Address confirmed">
      <p role="status">
        Your address <Emphasis>{email}</Emphasis> is confirmed.
      </p>
      <p>
        {signedIn
          ? 'Photos shared with this address now show in your gallery.'
          : 'Sign in to see the photos shared with this address.'}
      </p>
      <div>
        {signedIn ? (
          <LinkButton to={next} variant="primary">
            Continue
          </LinkButton>
        ) : (
          <LinkButton to={paths.signin.getHref()} variant="primary">
            Sign in
          </LinkButton>
        )}
      </div>
    </ConfirmFrame>
  );
}

/** The token is unknown, used or expired (404). A signed-in, unconfirmed person can ask for a new one. */
export function InvalidLink() {
  const signedIn = isSignedIn();
  const unconfirmed = useUnconfirmedEmail();
  return (
    <ConfirmFrame title="Link not valid">
      <p>{INVALID_LINK_TEXT}</p>
      {unconfirmed ? (
        <p>
          Your address <Emphasis>{unconfirmed}</Emphasis> is not confirmed yet. We can mail a new link to it.
        </p>
      ) : null}
      {!signedIn ? <p>If you have confirmed your address already, simply sign in.</p> : null}
      <div className="flex flex-wrap gap-2">
        {unconfirmed ? <ResendButton label="Send me a new link" variant="primary" /> : null}
        {signedIn ? (
          <LinkButton to={paths.home.getHref()}>Go to the gallery</LinkButton>
        ) : (
          <LinkButton to={paths.signin.getHref()} variant="primary">
            Sign in
          </LinkButton>
        )}
      </div>
    </ConfirmFrame>
  );
}

/** The server could not be asked (network, 5xx): nothing is known about the link yet. */
export function CheckFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <ConfirmFrame title="The link could not be checked">
      <p>Please try again in a moment.</p>
      <div>
        <Button onClick={onRetry}>Try again</Button>
      </div>
    </ConfirmFrame>
  );
}
