import { useEffect, useId, useMemo, useState } from 'react';
import { useExistingTags } from '../api/get-gallery';

type TagPanelProps = {
  id: string;
  selected: ReadonlySet<string>;
  onToggle: (tag: string) => void;
  onClose: () => void;
};

/**
 * Most tags rendered at once. A library can hold 10,000 tags; nobody scans that many, and a page of
 * 10,000 buttons is slow to open. The find box narrows the list; chosen tags always show.
 */
export const MAX_SHOWN_TAGS = 300;

/**
 * The tags to show, in the vocabulary's order (so nothing moves under the pointer as tags are
 * toggled): chosen ones always, others containing the text up to MAX_SHOWN_TAGS in all.
 */
export function tagsToShow(all: readonly string[], selected: ReadonlySet<string>, text: string): { shown: string[]; matching: number } {
  const needle = text.trim().toLowerCase();
  const shown: string[] = [];
  let matching = 0;
  let room = MAX_SHOWN_TAGS - all.filter((tag) => selected.has(tag)).length;
  for (const tag of all) {
    if (selected.has(tag)) {
      matching += 1;
      shown.push(tag);
    } else if (!needle || tag.toLowerCase().includes(needle)) {
      matching += 1;
      if (room > 0) {
        shown.push(tag);
        room -= 1;
      }
    }
  }
  return { shown, matching };
}

/** Spec §2/§4: every tag as a toggle; choosing tags filters the whole library. Escape closes it. */
export function TagPanel({ id, selected, onToggle, onClose }: TagPanelProps) {
  const tags = useExistingTags();
  const [text, setText] = useState('');
  const findId = useId();

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // A dialog opened over the gallery takes Escape for itself.
      if (event.key === 'Escape' && !document.querySelector('[role="dialog"][aria-modal="true"]')) onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onClose]);

  const list = useMemo(() => tags.data ?? [], [tags.data]);
  const { shown, matching } = useMemo(() => tagsToShow(list, selected, text), [list, selected, text]);
  return (
    <section id={id} aria-label="Filter by tag" className="mb-4 flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      {tags.isPending ? <p className="text-sm text-slate-500">Loading tags...</p> : null}
      {tags.isSuccess && list.length === 0 ? <p className="text-sm text-slate-500">No tags yet.</p> : null}
      {list.length > MAX_SHOWN_TAGS ? (
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={findId} className="text-sm font-medium text-slate-700">
            Find a tag
          </label>
          <input
            id={findId}
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            autoComplete="off"
            className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
          />
          {matching > shown.length ? (
            <span className="text-xs text-slate-500">
              Showing {shown.length} of {matching} tags; type to narrow them down.
            </span>
          ) : null}
        </div>
      ) : null}
      {/* Spec §9: the tag list is at most 258px tall and scrolls. */}
      <ul className="flex max-h-[258px] flex-wrap gap-2 overflow-y-auto">
        {shown.map((tag) => (
          <li key={tag}>
            <button
              type="button"
              aria-pressed={selected.has(tag)}
              onClick={() => onToggle(tag)}
              className={`rounded-full px-3 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600 ${
                selected.has(tag) ? 'bg-indigo-600 text-white' : 'bg-slate-100 text-slate-700 hover:bg-slate-200'
              }`}
            >
              #{tag}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
