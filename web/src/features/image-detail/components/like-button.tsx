import { useState } from 'react';
import { isSignedIn } from '@/lib/auth';
import { useLikeImage } from '../api/image-actions';
import { LikeHeart } from './like-heart';

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

  return <LikeHeart liked={state.liked} likes={state.likes} onToggle={toggle} />;
}
