import { tags } from '@photo/contract';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { optionId, SuggestionList, useActiveSuggestion } from '@/components/ui/suggestion-list';
import { useAddTagToImage } from '../api/image-actions';
import { useTagSuggestions } from '@/lib/tag-suggestions';

/**
 * Spec §2/§5: "#" prefix, placeholder 'Add a new tag', Add; Enter saves one tag. Known tags are
 * suggested from 2 characters: the arrow keys choose one (Enter then saves it), Tab completes the
 * first into the box, a click saves it.
 */
export function AddTagForm({ imageId }: { imageId: string }) {
  const [tag, setTag] = useState('');
  const [focused, setFocused] = useState(false);
  const addTag = useAddTagToImage(imageId);
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const suggestions = useTagSuggestions(tag, tags.IMAGE_TAG_SUGGESTION_MIN).slice(0, tags.MAX_TAG_SUGGESTIONS);
  // A lone suggestion that is exactly the typed text adds nothing.
  const onlyTheTyped = suggestions.length === 1 && suggestions[0] === tag.trim().toLowerCase();
  const shown = focused && !onlyTheTyped ? suggestions : [];
  const { active, onArrowKey } = useActiveSuggestion(shown);

  const save = (text: string) => {
    const value = text.trim();
    if (!value) return;
    setTag(value);
    addTag.mutate(value, { onSuccess: () => setTag('') });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save(active >= 0 ? shown[active]! : tag);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (onArrowKey(event)) return;
    if (event.key === 'Tab' && !event.shiftKey && shown.length > 0) {
      event.preventDefault();
      setTag(shown[active >= 0 ? active : 0]!);
    } else if (event.key === 'Escape' && shown.length > 0) {
      // Closes the suggestions; the detail's own Escape ignores keys typed in a field anyway.
      event.preventDefault();
      setFocused(false);
    }
  };

  return (
    <form onSubmit={onSubmit} className="relative flex items-center gap-2">
      <label htmlFor={inputId} className="sr-only">
        New tag
      </label>
      <span aria-hidden="true" className="text-lg text-slate-500">
        #
      </span>
      <input
        id={inputId}
        aria-controls={shown.length > 0 ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? optionId(listId, active) : undefined}
        value={tag}
        onChange={(event) => {
          setTag(event.target.value);
          setFocused(true);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        placeholder="Add a new tag"
        autoComplete="off"
        autoCapitalize="none"
        className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-900 focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
      />
      <Button type="submit" disabled={addTag.isPending}>
        Add
      </Button>
      {shown.length > 0 ? (
        <SuggestionList
          id={listId}
          label="Tag suggestions"
          prefix="#"
          suggestions={shown}
          activeIndex={active}
          onPick={save}
          className="absolute top-full right-0 left-0 mt-1"
        />
      ) : null}
    </form>
  );
}
