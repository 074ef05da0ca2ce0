import { useState } from 'react';
import { texts } from '@photo/contract';
import { isSignedIn } from '@/lib/auth';
import { useLikeImage } from '../api/image-actions';

type LikeState = { liked: boolean; likes: number };

/**
 * Spec §4: an optimistic toggle, reverted on failure; it sends the opposite of the current state
 * and the server's answer replaces the local one. The heart is filled when likes is above 0.
 */
export function LikeButton({ imageId, initial }: { imageId: string; initial: LikeState }) {
  const [state, setState] = useState(initial);
  const like = useLikeImage(imageId);

  const toggle = () => {
    // Spec §8: without a token a like is reverted with no message: it stays as it was, and no call
    // is made that could only fail.
    if (!isSignedIn()) return;
    const before = state;
    const liked = !before.liked;
    setState({ liked, likes: Math.max(0, before.likes + (liked ? 1 : -1)) });
    like.mutate(liked, {
      onSuccess: (answer) => setState({ liked: answer.liked, likes: answer.likes }),
      onError: (error) => {
        console.error('Error updating like:', error); // spec §8: only logged
        setState(before);
      },
    });
  };

  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        aria-pressed={state.liked}
        aria-label={state.liked ? 'Unlike' : 'Like'}
        onClick={toggle}
        className="rounded-full p-2 text-rose-600 hover:bg-rose-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" className="size-6" fill={state.likes > 0 ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth={1.8}>
          <path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z" />
        </svg>
      </button>
      <span className="text-sm text-slate-700">{texts.likesText(state.likes)}</span>
    </div>
  );
}
