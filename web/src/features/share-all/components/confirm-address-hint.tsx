import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useAddressProof } from '@/lib/address-proofs';

/**
 * On a share-all page opened from its mail (`?confirm=<token>`): the photos show as always, and a
 * line offers to prove the address the mail went to, so shares with it also reach the person's
 * own account. Nothing when the link's proof is unknown (404), used, or already confirmed.
 */
export function ConfirmAddressHint({ token, link }: { token: string; link: string }) {
  const proof = useAddressProof(token);
  if (!proof.data || proof.data.state === 'confirmed') return null;
  return (
    <section
      aria-label="Confirm your e-mail address"
      className="mb-6 rounded-xl border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-950"
    >
      Is <strong className="font-semibold break-all">{proof.data.email}</strong> your e-mail address?{' '}
      <Link
        to={paths.confirmEmail.getHref(token, paths.shareAll.getHref(link))}
        className="font-medium text-indigo-700 underline hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        Confirm it to see shared photos in your own gallery.
      </Link>
    </section>
  );
}
