import { tags } from '@photo/contract';
import { useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SearchIcon } from '@/components/ui/icons';
import { optionId, SuggestionList, useActiveSuggestion } from '@/components/ui/suggestion-list';
import { paths } from '@/config/paths';
import { useTagSuggestions } from '@/lib/tag-suggestions';

const SEARCH_PREFIX = '/search/';

/** Spec §2: on a /search/ path the box shows the decoded query; elsewhere it is empty. */
export function queryFromPathname(pathname: string): string {
  if (!pathname.startsWith(SEARCH_PREFIX)) return '';
  const raw = pathname.slice(SEARCH_PREFIX.length);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a malformed escape: show it as typed rather than fail
  }
}

/**
 * The highlighted suggestion when the list appears: the typed text itself if it is a tag, else the
 * best match — so typing 'bea' and Enter searches 'beach' (issue 4), while Escape or ArrowUp past
 * the top leaves the typed text to be searched as it is.
 */
function initialHighlight(typed: string) {
  return (list: readonly string[]) => {
    const exact = list.findIndex((suggestion) => suggestion.toLowerCase() === typed.trim().toLowerCase());
    return exact >= 0 ? exact : list.length > 0 ? 0 : -1;
  };
}

/** The header's tag search: a combobox with suggestions from 3 characters (spec §5). */
export function SearchBox() {
  const location = useLocation();
  const navigate = useNavigate();
  const [text, setText] = useState(() => queryFromPathname(location.pathname));
  const [listOpen, setListOpen] = useState(false);
  const suggestions = useTagSuggestions(text, tags.SEARCH_SUGGESTION_MIN, 150);
  const shown = listOpen ? suggestions : [];
  const { active, onArrowKey } = useActiveSuggestion(shown, initialHighlight(text));
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;

  useEffect(() => {
    setText(queryFromPathname(location.pathname));
    setListOpen(false);
  }, [location.pathname]);

  const search = (query: string) => {
    const trimmed = query.trim();
    if (!trimmed) return; // spec §5: empty or whitespace-only text is ignored
    setListOpen(false);
    setText(trimmed);
    void navigate(paths.search.getHref(trimmed));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    search(active >= 0 ? shown[active]! : text);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!listOpen && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) setListOpen(true);
    if (onArrowKey(event)) return;
    if (event.key === 'Escape' && shown.length > 0) {
      event.preventDefault();
      setListOpen(false);
    } else if (event.key === 'Tab' && !event.shiftKey && active >= 0) {
      // Tab completes the text with the highlighted tag and stays in the box.
      event.preventDefault();
      setText(shown[active]!);
    }
  };

  return (
    <form role="search" onSubmit={onSubmit} className="relative w-full">
      <label htmlFor={inputId} className="sr-only">
        Search photos by tag
      </label>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
      <input
        id={inputId}
        type="search"
        // A search box that owns its suggestion list (kept a searchbox: that is what it is to people).
        aria-controls={shown.length > 0 ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? optionId(listId, active) : undefined}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setListOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setListOpen(false)}
        placeholder="Search by tag"
        autoComplete="off"
        enterKeyHint="search"
        className="w-full rounded-full border border-slate-300 bg-slate-50 py-2 pr-4 pl-9 text-sm text-slate-900 placeholder:text-slate-400 focus:border-indigo-500 focus:bg-white focus:outline-2 focus:outline-indigo-200"
      />
      {shown.length > 0 ? (
        <SuggestionList
          id={listId}
          label="Search suggestions"
          suggestions={shown}
          activeIndex={active}
          onPick={search}
          className="absolute top-full right-0 left-0 mt-1"
        />
      ) : null}
    </form>
  );
}
