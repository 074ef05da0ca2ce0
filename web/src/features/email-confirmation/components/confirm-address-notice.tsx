import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { isAuthPage } from '@/config/paths';
import { currentUserQueryOptions, isSignedIn } from '@/lib/auth';
import { refreshAfterConfirmation } from '../api/confirm-address';
import { ResendButton } from './resend-button';

/** While unconfirmed, the account is read again this often (and on coming back to the tab). */
const UNCONFIRMED_RECHECK_MS = 60_000;

/**
 * Under the header of every signed-in page while the account has not proven its address: nothing
 * shared with it shows until then. The link is usually opened in another tab; this one notices on
 * its next look at the account (when it comes back to the front, or within a minute), hides the
 * notice and reads the lists again so the shared photos appear.
 */
export function ConfirmAddressNotice() {
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const signedIn = isSignedIn();
  // The header's own query (same key): no request of its own, only more frequent while unconfirmed.
  const me = useQuery({
    ...currentUserQueryOptions(),
    enabled: signedIn,
    refetchInterval: (query) => (query.state.data?.emailConfirmed === false ? UNCONFIRMED_RECHECK_MS : false),
    refetchOnWindowFocus: (query) => (query.state.data?.emailConfirmed === false ? 'always' : false),
  });
  const confirmed = me.data?.emailConfirmed;

  const wasUnconfirmed = useRef(false);
  useEffect(() => {
    if (confirmed === false) wasUnconfirmed.current = true;
    if (confirmed === true && wasUnconfirmed.current) {
      wasUnconfirmed.current = false;
      void refreshAfterConfirmation(queryClient);
    }
  }, [confirmed, queryClient]);

  if (!signedIn || isAuthPage(pathname) || !me.data || me.data.emailConfirmed) return null;

  return (
    <section aria-label="E-mail confirmation" className="border-b border-amber-200 bg-amber-50">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 text-sm text-amber-900 sm:px-6">
        <p className="min-w-0 flex-1">
          Confirm your e-mail address <strong className="font-semibold break-all">{me.data.email}</strong>: we sent you a
          link. Until you open it, photos shared with this address stay hidden.
        </p>
        <ResendButton />
      </div>
    </section>
  );
}
