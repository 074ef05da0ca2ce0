import { useEffect, useId, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { SearchIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useSearchSuggestions } from '../api/get-search-suggestions';

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

export function SearchBox() {
  const location = useLocation();
  const navigate = useNavigate();
  const [text, setText] = useState(() => queryFromPathname(location.pathname));
  const suggestions = useSearchSuggestions(useDebouncedValue(text));
  const listId = useId();

  useEffect(() => setText(queryFromPathname(location.pathname)), [location.pathname]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const query = text.trim();
    if (!query) return; // spec §5: empty or whitespace-only text is ignored
    void navigate(paths.search.getHref(query));
  };

  return (
    <form role="search" onSubmit={onSubmit} className="relative w-full">
      <label htmlFor={`${listId}-input`} className="sr-only">
        Search photos by tag
      </label>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
      <input
        id={`${listId}-input`}
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder="Search by tag"
        list={suggestions.length > 0 ? listId : undefined}
        autoComplete="off"
        enterKeyHint="search"
        className="w-full rounded-full border border-slate-300 bg-slate-50 py-2 pr-4 pl-9 text-sm text-slate-900 placeholder:text-slate-400 focus:border-indigo-500 focus:bg-white focus:outline-2 focus:outline-indigo-200"
      />
      <datalist id={listId}>
        {suggestions.map((suggestion) => (
          <option key={suggestion} value={suggestion} />
        ))}
      </datalist>
    </form>
  );
}
