import { tags } from '@photo/contract';
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { optionId, SuggestionList, useActiveSuggestion } from '@/components/ui/suggestion-list';
import { serverMessage } from '@/lib/api-client';
import { TAG_INPUT_MAX_LENGTH, withoutHashPrefix } from '@/lib/tag-input';
import { useTagSuggestions } from '@/lib/tag-suggestions';
import { useAddTagToImage } from '../api/image-actions';

/**
 * Spec §2/§5: "#" prefix, placeholder 'Add a new tag', Add; Enter saves one tag. Known tags are
 * suggested from 2 characters: the arrow keys choose one (Enter then saves it), Tab completes the
 * first into the box, a click saves it. A "#" typed before the tag is dropped (the box shows one);
 * a refused tag (too long, say) shows the server's reason below, besides the log spec §8 asks for.
 */
export function AddTagForm({ imageId }: { imageId: string }) {
  const [tag, setTag] = useState('');
  const [focused, setFocused] = useState(false);
  const addTag = useAddTagToImage(imageId);
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const typed = withoutHashPrefix(tag);
  const suggestions = useTagSuggestions(typed, tags.IMAGE_TAG_SUGGESTION_MIN).slice(0, tags.MAX_TAG_SUGGESTIONS);
  // A lone suggestion that is exactly the typed text adds nothing.
  const onlyTheTyped = suggestions.length === 1 && suggestions[0] === typed.toLowerCase();
  const shown = focused && !onlyTheTyped ? suggestions : [];
  const { active, onArrowKey } = useActiveSuggestion(shown);

  const save = (text: string) => {
    const value = withoutHashPrefix(text);
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
    <div className="flex flex-col gap-2">
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
            if (addTag.isError) addTag.reset();
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          placeholder="Add a new tag"
          maxLength={TAG_INPUT_MAX_LENGTH}
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
      {addTag.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {serverMessage(addTag.error) ?? 'The tag could not be added.'}
        </p>
      ) : null}
    </div>
  );
}
