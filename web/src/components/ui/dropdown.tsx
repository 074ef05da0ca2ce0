import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';

type DropdownProps = {
  /** Accessible name of the toggle button. */
  label: string;
  /** What the toggle shows (an icon, an avatar); defaults to the label. */
  trigger?: ReactNode;
  children: ReactNode;
  align?: 'left' | 'right';
  buttonClassName?: string;
};

/**
 * A disclosure: a button with aria-expanded that shows a list of links and buttons.
 * Escape and a click outside close it (Escape returns focus to the button); Tab moves
 * through the items as usual, and following a link closes it.
 */
export function Dropdown({ label, trigger, children, align = 'right', buttonClassName = '' }: DropdownProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const location = useLocation();

  useEffect(() => setOpen(false), [location.pathname]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onFocusIn = (event: FocusEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('focusin', onFocusIn);
    };
  }, [open]);

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label={trigger ? label : undefined}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        className={`inline-flex items-center gap-2 rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600 ${buttonClassName}`}
      >
        {trigger ?? label}
      </button>
      <div
        id={panelId}
        hidden={!open}
        onClick={(event) => {
          // Any link or button inside finishes the menu's job.
          if ((event.target as HTMLElement).closest('a,button')) setOpen(false);
        }}
        className={`absolute top-full z-50 mt-2 w-56 max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-1 shadow-lg ${
          align === 'right' ? 'right-0' : 'left-0'
        }`}
      >
        {children}
      </div>
    </div>
  );
}

export const dropdownItemClasses =
  'flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600';
