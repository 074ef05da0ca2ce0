import { useEffect, useRef, type PointerEvent } from 'react';
import type { Image } from '@photo/contract';
import { OverlayCloseButton } from '@/components/ui/overlay-close-button';
import { StepButton } from '@/components/ui/step-button';
import { aspectRatioOf, Thumbnail } from '@/components/ui/thumbnail';

type SharedLightboxProps = {
  images: readonly Image[];
  /** The photo shown; it must be one of `images`. */
  index: number;
  onShow: (index: number) => void;
  onClose: () => void;
};

/** A horizontal swipe longer than this (and longer than it is tall) steps to the next or previous photo. */
const SWIPE_PX = 50;

/**
 * The public share page's photo, large: the display image fitted to the window, previous/next
 * (buttons, arrow keys, a swipe; wrapping at both ends), and Escape, the close button or a click
 * beside the picture to go back to the grid. Plain viewing: no links into the signed-in app.
 */
export function SharedLightbox({ images, index, onShow, onClose }: SharedLightboxProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const swipeStart = useRef<{ x: number; y: number } | null>(null);
  // A swipe that ends beside the picture is not also a click that closes.
  const swiped = useRef(false);
  const image = images[index]!;
  const count = images.length;
  const step = (by: 1 | -1) => onShow((index + by + count) % count);

  // Focus moves in, the page behind stops scrolling; both come back on close.
  useEffect(() => {
    const previouslyFocused = document.activeElement as HTMLElement | null;
    dialogRef.current?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      previouslyFocused?.focus();
    };
  }, []);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
      else if (event.key === 'ArrowRight') onShow((index + 1) % count);
      else if (event.key === 'ArrowLeft') onShow((index - 1 + count) % count);
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onClose, onShow, index, count]);

  // The neighbours' display images are fetched ahead, so stepping shows them at once.
  useEffect(() => {
    if (count < 2) return;
    for (const neighbour of [images[(index + 1) % count], images[(index - 1 + count) % count]]) {
      const src = neighbour?.trimmedURL;
      if (src) new window.Image().src = src;
    }
  }, [images, index, count]);

  /** Whether the click that follows a pointer gesture ends a swipe (already handled), once. */
  const clickEndsSwipe = () => {
    const was = swiped.current;
    swiped.current = false;
    return was;
  };
  const onPointerDown = (event: PointerEvent) => {
    swiped.current = false;
    swipeStart.current = { x: event.clientX, y: event.clientY };
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = swipeStart.current;
    swipeStart.current = null;
    if (!start || count < 2) return;
    const dx = event.clientX - start.x;
    swiped.current = Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(event.clientY - start.y);
    if (swiped.current) step(dx < 0 ? 1 : -1);
  };

  const ratio = aspectRatioOf(image.width, image.height);
  return (
    <div
      ref={dialogRef}
      role="dialog"
      aria-modal="true"
      aria-label="Photo viewer"
      tabIndex={-1}
      className="fixed inset-0 z-50 flex flex-col bg-slate-950 text-white outline-none"
    >
      <div className="flex items-center justify-between gap-3 px-4 py-2">
        <p className="text-sm text-slate-300 tabular-nums">
          {index + 1} / {count}
        </p>
        <OverlayCloseButton onClose={onClose} />
      </div>
      <div
        data-testid="lightbox-stage"
        // A size container: the picture fits it by its aspect ratio (cqw/cqh below).
        style={{ containerType: 'size' }}
        className="relative min-h-0 flex-1 touch-pan-y select-none"
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (swipeStart.current = null)}
      >
        <div
          className="absolute inset-0 flex items-center justify-center [--gutter:1rem] sm:[--gutter:8rem]"
          onClick={(event) => {
            if (!clickEndsSwipe() && event.target === event.currentTarget) onClose();
          }}
        >
          {/* Beside the picture, room for the step buttons from sm up. */}
          <div style={{ width: `min(100cqw - var(--gutter), (100cqh - 1rem) * ${ratio})` }}>
            <Thumbnail
              key={image._id}
              src={image.trimmedURL ?? image.thumbnailURL}
              previewSrc={image.thumbnailURL}
              alt={image.imageName}
              placeholder={image.placeholder}
              width={image.width}
              height={image.height}
              lazy="eager"
              className="w-full rounded"
            />
          </div>
        </div>
        {count > 1 ? (
          <>
            <StepButton direction="previous" noun="photo" onClick={() => clickEndsSwipe() || step(-1)} />
            <StepButton direction="next" noun="photo" onClick={() => clickEndsSwipe() || step(1)} />
          </>
        ) : null}
      </div>
    </div>
  );
}
