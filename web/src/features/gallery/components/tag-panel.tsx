import { useEffect } from 'react';
import { useExistingTags } from '../api/get-gallery';

type TagPanelProps = {
  id: string;
  selected: ReadonlySet<string>;
  onToggle: (tag: string) => void;
  onClose: () => void;
};

/** Spec §2/§4: every tag as a toggle; choosing tags filters the whole library. Escape closes it. */
export function TagPanel({ id, selected, onToggle, onClose }: TagPanelProps) {
  const tags = useExistingTags();

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // A dialog opened over the gallery takes Escape for itself.
      if (event.key === 'Escape' && !document.querySelector('[role="dialog"][aria-modal="true"]')) onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [onClose]);

  const list = tags.data ?? [];
  return (
    <section id={id} aria-label="Filter by tag" className="mb-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      {tags.isPending ? <p className="text-sm text-slate-500">Loading tags...</p> : null}
      {tags.isSuccess && list.length === 0 ? <p className="text-sm text-slate-500">No tags yet.</p> : null}
      {/* Spec §9: the tag list is at most 258px tall and scrolls. */}
      <ul className="flex max-h-[258px] flex-wrap gap-2 overflow-y-auto">
        {list.map((tag) => (
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
