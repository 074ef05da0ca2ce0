import { useId, useState, type KeyboardEvent } from 'react';
import { tags as tagContract } from '@photo/contract';

type TagChipsInputProps = {
  label: string;
  value: string[];
  onChange: (tags: string[]) => void;
  /** Known tags to suggest from. */
  vocabulary: string[];
  /** Text typed but not yet committed, so a submit can include it. */
  draft: string;
  onDraftChange: (text: string) => void;
};

const normalise = (text: string) => text.trim().toLowerCase();

/** Up to 5 known tags starting with the text, excluding chosen ones (spec §5, from 1 character). */
export function suggestTags(text: string, vocabulary: string[], chosen: string[]): string[] {
  const prefix = normalise(text);
  if (prefix.length < tagContract.BULK_TAG_SUGGESTION_MIN) return [];
  return vocabulary
    .filter((tag) => tag.toLowerCase().startsWith(prefix) && !chosen.includes(tag.toLowerCase()))
    .slice(0, tagContract.MAX_TAG_SUGGESTIONS);
}

/**
 * Pending tags as chips. Spec §5: Space or Enter commits the text; Tab or Enter takes the first
 * suggestion; Backspace in an empty box removes the last chip.
 */
export function TagChipsInput({ label, value, onChange, vocabulary, draft, onDraftChange }: TagChipsInputProps) {
  const inputId = useId();
  const [focused, setFocused] = useState(false);
  const suggestions = suggestTags(draft, vocabulary, value);

  const add = (tag: string) => {
    const clean = normalise(tag);
    if (clean && !value.includes(clean)) onChange([...value, clean]);
    onDraftChange('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const first = suggestions[0];
    if ((event.key === 'Enter' || event.key === 'Tab') && first) {
      event.preventDefault();
      add(first);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      add(draft);
    } else if (event.key === 'Backspace' && draft === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  };

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-300 px-2 py-2 focus-within:border-indigo-500">
        {value.map((tag) => (
          <span key={tag} className="flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-3 text-sm text-indigo-800">
            #{tag}
            <button
              type="button"
              aria-label={`Remove ${tag}`}
              onClick={() => onChange(value.filter((item) => item !== tag))}
              className="rounded-full px-1.5 hover:bg-indigo-100"
            >
              ×
            </button>
          </span>
        ))}
        <input
          id={inputId}
          value={draft}
          onChange={(event) => onDraftChange(event.target.value)}
          onKeyDown={onKeyDown}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          placeholder={value.length === 0 ? 'Type a tag, then Space or Enter' : ''}
          autoComplete="off"
          className="min-w-32 flex-1 border-0 px-1 text-sm outline-none"
        />
      </div>
      {focused && suggestions.length > 0 ? (
        <ul aria-label="Suggestions" className="rounded-lg border border-slate-200 bg-white py-1 shadow-sm">
          {suggestions.map((tag) => (
            <li key={tag}>
              <button
                type="button"
                // mousedown keeps focus in the input, so the list does not vanish before the click
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => add(tag)}
                className="w-full px-3 py-1 text-left text-sm hover:bg-slate-100"
              >
                #{tag}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
