import { CloseIcon } from '@/components/ui/icons';

/** The × in the bar of a full-screen dark view (the image detail, the share-all lightbox). */
export function OverlayCloseButton({ onClose }: { onClose: () => void }) {
  return (
    <button
      type="button"
      aria-label="Close"
      onClick={onClose}
      className="rounded-lg p-2 text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-indigo-400"
    >
      <CloseIcon />
    </button>
  );
}
