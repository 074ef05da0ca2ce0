import { texts } from '@photo/contract';

type LikeHeartProps = { liked: boolean; likes: number; onToggle: () => void };

/** Spec §2/§4: the heart (filled when likes > 0, pressed when the person likes it) and 'N Likes'. */
export function LikeHeart({ liked, likes, onToggle }: LikeHeartProps) {
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        aria-pressed={liked}
        aria-label={liked ? 'Unlike' : 'Like'}
        onClick={onToggle}
        className="rounded-full p-2 text-rose-600 hover:bg-rose-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" className="size-6" fill={likes > 0 ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth={1.8}>
          <path d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z" />
        </svg>
      </button>
      <span className="text-sm text-slate-700">{texts.likesText(likes)}</span>
    </div>
  );
}
