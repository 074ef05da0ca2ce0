import { useEffect } from 'react';

const NOT_TYPING_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** True when the keys belong to a text field (or an editable element), not to the page. */
export function isTypingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NOT_TYPING_INPUTS.has(target.type);
}

export type TimelineKeyActions = { page: (direction: 1 | -1) => void; home: () => void; end: () => void };

/**
 * PageUp / PageDown / Home / End move through the timeline wherever the focus is, except in a text
 * field or under a dialog (which keep their keys).
 */
export function useTimelineKeys(actions: TimelineKeyActions): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (isTypingIn(event.target) || document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      if (event.key === 'PageDown') actions.page(1);
      else if (event.key === 'PageUp') actions.page(-1);
      else if (event.key === 'Home') actions.home();
      else if (event.key === 'End') actions.end();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [actions]);
}
