import { useEffect } from 'react';

type DetailKeys = { onNext?: () => void; onPrevious?: () => void; onEscape: () => void; enabled?: boolean };

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

/**
 * Spec §2 Image detail: → next, ← previous, Escape back; ignored while typing in a field, and while
 * a dialog over the detail (`enabled` false) has the keys.
 */
export function useDetailKeys({ onNext, onPrevious, onEscape, enabled = true }: DetailKeys): void {
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (isTyping(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'ArrowRight' && onNext) onNext();
      else if (event.key === 'ArrowLeft' && onPrevious) onPrevious();
      else if (event.key === 'Escape') onEscape();
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onNext, onPrevious, onEscape, enabled]);
}
