import { useEffect, useId, useRef, type ReactNode } from 'react';
import { OverlayCloseButton } from '@/components/ui/overlay-close-button';

type DetailModalProps = {
  /** The bar above the image: the breadcrumb. */
  bar: ReactNode;
  onClose: () => void;
  children: ReactNode;
};

/**
 * Spec §2: the image detail is a modal over the app. It takes the whole window, keeps the page
 * behind from scrolling, and takes focus so the keys work at once.
 */
export function DetailModal({ bar, onClose, children }: DetailModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    dialogRef.current?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
    };
  }, []);

  return (
    <div
      ref={dialogRef}
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      tabIndex={-1}
      className="fixed inset-0 z-50 flex flex-col bg-slate-950 text-white outline-none"
    >
      <h1 id={titleId} className="sr-only">
        Image detail
      </h1>
      <div className="flex items-center justify-between gap-3 border-b border-white/10 px-4 py-2">
        {bar}
        <OverlayCloseButton onClose={onClose} />
      </div>
      <div className="flex min-h-0 flex-1 flex-col overflow-y-auto lg:flex-row lg:overflow-hidden">{children}</div>
    </div>
  );
}
