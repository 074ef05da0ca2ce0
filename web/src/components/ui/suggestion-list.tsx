import { useState } from 'react';

type SuggestionListProps = {
  /** The listbox id, named by the input's aria-controls; options are `${id}-${index}`. */
  id: string;
  label: string;
  suggestions: readonly string[];
  /** The highlighted option (aria-activedescendant of the input), or -1. */
  activeIndex: number;
  onPick: (suggestion: string) => void;
  /** Shown before each suggestion ('#' for tags). */
  prefix?: string;
  className?: string;
};

export const optionId = (listId: string, index: number) => `${listId}-${index}`;

/**
 * The suggestions under a text box (ARIA combobox pattern): the input keeps focus, the keys move the
 * highlight, a click picks one. Mouse-down is cancelled so the input does not blur before the click.
 */
export function SuggestionList({ id, label, suggestions, activeIndex, onPick, prefix = '', className = '' }: SuggestionListProps) {
  return (
    <ul
      id={id}
      role="listbox"
      aria-label={label}
      className={`z-30 max-h-64 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 text-slate-900 shadow-lg ${className}`}
    >
      {suggestions.map((suggestion, index) => (
        <li
          key={suggestion}
          id={optionId(id, index)}
          role="option"
          aria-selected={index === activeIndex}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(suggestion)}
          className={`cursor-pointer px-3 py-1.5 text-left text-sm ${index === activeIndex ? 'bg-indigo-600 text-white' : 'hover:bg-slate-100'}`}
        >
          {prefix}
          {suggestion}
        </li>
      ))}
    </ul>
  );
}

/**
 * Which suggestion is highlighted. `initial` picks the highlight whenever the list changes (-1 for
 * none); ArrowDown/ArrowUp move it, wrapping through "none". `onArrowKey` returns true when it used the key.
 */
export function useActiveSuggestion(suggestions: readonly string[], initial: (list: readonly string[]) => number = () => -1) {
  const key = suggestions.join('\n');
  const [chosen, setChosen] = useState<{ key: string; index: number } | null>(null);
  // A new list (the text changed) starts from its own initial highlight.
  const active = chosen?.key === key ? chosen.index : initial(suggestions);

  const onArrowKey = (event: { key: string; preventDefault: () => void }): boolean => {
    if (suggestions.length === 0 || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return false;
    event.preventDefault();
    // The highlight cycles through the suggestions and "none" (-1: the text as typed).
    const positions = suggestions.length + 1;
    const step = event.key === 'ArrowDown' ? 1 : -1;
    setChosen({ key, index: ((active + 1 + step + positions) % positions) - 1 });
    return true;
  };

  return { active: active >= 0 && active < suggestions.length ? active : -1, onArrowKey };
}
