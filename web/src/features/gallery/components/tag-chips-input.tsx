import { useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { tags as tagContract } from '@photo/contract';
import { optionId, SuggestionList, useActiveSuggestion } from '@/components/ui/suggestion-list';
import { withoutHashPrefix } from '@/lib/tag-input';
import { useTagSuggestions } from '@/lib/tag-suggestions';
import { hasFinishedTag, normaliseTag, splitTags } from './tag-text';

type TagChipsInputProps = {
  label: string;
  value: string[];
  onChange: (tags: string[]) => void;
  /** Text typed but not yet committed, so a submit can include it. */
  draft: string;
  onDraftChange: (text: string) => void;
  /** Tags every target already has: suggesting them would add nothing. */
  alreadyOnAll?: readonly string[];
};

/** Spec §5: at most 5 suggestions, leaving out tags already chosen. */
export function suggestTags(suggestions: readonly string[], chosen: readonly string[]): string[] {
  return suggestions.filter((tag) => !chosen.includes(normaliseTag(tag))).slice(0, tagContract.MAX_TAG_SUGGESTIONS);
}

/** An open quote: the text after it is one tag, spaces and all, until the closing quote. */
const inQuote = (draft: string) => draft.startsWith('"') && draft.indexOf('"', 1) < 0;

/**
 * Pending tags as chips. Spec §5: Space or Enter commits the typed text; Tab or Enter takes the
 * first suggestion (or the one chosen with the arrow keys); Backspace in an empty box removes the
 * last chip. A comma commits too, and a quoted phrase (`"summer 2024"`) is one tag, so a tag of
 * several words can be typed; a suggestion with a space is taken whole. Enter in an empty box saves.
 */
export function TagChipsInput({ label, value, onChange, draft, onDraftChange, alreadyOnAll = [] }: TagChipsInputProps) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const [focused, setFocused] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  // The dialog focuses its first control (the close button) as it opens; typing tags is what the
  // dialog is for, so the box takes focus right after.
  useEffect(() => {
    const timer = setTimeout(() => inputRef.current?.focus());
    return () => clearTimeout(timer);
  }, []);
  const typed = withoutHashPrefix(draft.replace(/^"/, ''));
  const suggestions = suggestTags(useTagSuggestions(typed, tagContract.BULK_TAG_SUGGESTION_MIN), [...value, ...alreadyOnAll]);
  const shown = focused ? suggestions : [];
  const { active, onArrowKey } = useActiveSuggestion(shown, (list) => (list.length > 0 ? 0 : -1));

  const add = (tags: string[]) => {
    const fresh = tags.map(normaliseTag).filter((tag, index, all) => tag && !value.includes(tag) && all.indexOf(tag) === index);
    if (fresh.length > 0) onChange([...value, ...fresh]);
    onDraftChange('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (onArrowKey(event)) return;
    const suggestion = active >= 0 ? shown[active] : undefined;
    if ((event.key === 'Enter' || (event.key === 'Tab' && !event.shiftKey)) && suggestion !== undefined) {
      event.preventDefault();
      add([suggestion]);
    } else if (event.key === 'Enter' && draft.trim() !== '') {
      event.preventDefault();
      add(splitTags(draft));
    } else if ((event.key === ' ' && !inQuote(draft)) || event.key === ',' || (event.key === '"' && inQuote(draft) && typed.trim() !== '')) {
      event.preventDefault();
      add(splitTags(draft));
    } else if (event.key === 'Backspace' && draft === '' && value.length > 0) {
      event.preventDefault();
      onChange(value.slice(0, -1));
    }
    // Enter in an empty box falls through to the form: it saves.
  };

  // Phones send no usable key for Space, and a paste may hold many tags: split what arrives.
  const onTextChange = (event: ChangeEvent<HTMLInputElement>) => {
    const text = event.target.value;
    if (hasFinishedTag(text)) add(splitTags(text));
    else onDraftChange(text);
  };

  return (
    <div className="relative flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-300 px-2 py-2 focus-within:border-indigo-500">
        <ul aria-label="Tags to add" className="contents">
          {value.map((tag) => (
            <li key={tag} className="flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-3 text-sm text-indigo-800">
              #{tag}
              <button
                type="button"
                aria-label={`Remove ${tag}`}
                onClick={() => onChange(value.filter((item) => item !== tag))}
                className="rounded-full px-1.5 hover:bg-indigo-100"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <input
          ref={inputRef}
          id={inputId}
          role="combobox"
          aria-expanded={shown.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={active >= 0 ? optionId(listId, active) : undefined}
          aria-describedby={hintId}
          value={draft}
          onChange={onTextChange}
          onKeyDown={onKeyDown}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          placeholder={value.length === 0 ? 'Type a tag, then Space or Enter' : ''}
          autoComplete="off"
          autoCapitalize="none"
          className="min-w-32 flex-1 border-0 px-1 text-sm outline-none"
        />
      </div>
      <p id={hintId} className="text-xs text-slate-500">
        Space, comma or Enter adds a tag; Tab takes the first suggestion. Put a tag of several words in quotes: &quot;summer 2024&quot;.
      </p>
      {shown.length > 0 ? (
        <SuggestionList
          id={listId}
          label="Tag suggestions"
          prefix="#"
          suggestions={shown}
          activeIndex={active}
          onPick={(tag) => add([tag])}
          className="absolute top-full right-0 left-0 mt-1"
        />
      ) : null}
    </div>
  );
}
