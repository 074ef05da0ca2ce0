import { useEffect } from 'react';

type DetailKeys = { onNext?: () => void; onPrevious?: () => void; onEscape: () => void };

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/** Spec §2 Image detail: → next, ← previous, Escape back; ignored while typing in a field. */
export function useDetailKeys({ onNext, onPrevious, onEscape }: DetailKeys): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isTyping(event.target)) return;
      if (event.key === 'ArrowRight' && onNext) onNext();
      else if (event.key === 'ArrowLeft' && onPrevious) onPrevious();
      else if (event.key === 'Escape') onEscape();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onNext, onPrevious, onEscape]);
}
