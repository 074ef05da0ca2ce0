import { useEffect, useId, useRef, type ReactNode } from 'react';
import { CloseIcon } from '@/components/ui/icons';

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
        <button
          type="button"
          aria-label="Close"
          onClick={onClose}
          className="rounded-lg p-2 text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400"
        >
          <CloseIcon />
        </button>
      </div>
      <div className="flex min-h-0 flex-1 flex-col overflow-y-auto lg:flex-row lg:overflow-hidden">{children}</div>
    </div>
  );
}
