import { ChevronRightIcon } from '@/components/ui/icons';

/** The round previous/next button over a large photo (the detail view, the share-all lightbox). */
export function StepButton({ direction, noun, onClick }: { direction: 'previous' | 'next'; noun: 'image' | 'photo'; onClick: () => void }) {
  const next = direction === 'next';
  return (
    <button
      type="button"
      aria-label={`${next ? 'Next' : 'Previous'} ${noun}`}
      onClick={onClick}
      className={`absolute top-1/2 -translate-y-1/2 ${next ? 'right-2' : 'left-2'} rounded-full bg-black/50 p-2 text-white hover:bg-black/70 focus-visible:outline-2 focus-visible:outline-indigo-400`}
    >
      <ChevronRightIcon className={`size-6 ${next ? '' : 'rotate-180'}`} />
    </button>
  );
}
