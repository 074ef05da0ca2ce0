import { texts } from '@photo/contract';

type TagListProps = {
  tags: string[];
  /** When given, tags have a remove button (the detail view); the server decides who may. */
  onRemove?: (tag: string) => void;
  /** Which tags get that button (every tag when absent): those the viewer may remove. */
  canRemove?: (tag: string) => boolean;
  /** A tag being removed right now: its button waits. */
  removing?: string | null;
};

export function TagList({ tags, onRemove, canRemove, removing = null }: TagListProps) {
  if (tags.length === 0) return <p className="text-sm text-slate-500">{texts.NO_TAGS}</p>;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-2">
      {tags.map((tag) => {
        const remove = onRemove && (canRemove?.(tag) ?? true) ? () => onRemove(tag) : undefined;
        return (
          <li key={tag} className={`flex items-center gap-1 rounded-full bg-indigo-50 py-1 text-sm text-indigo-800 ${remove ? 'pr-1 pl-3' : 'px-3'}`}>
            #{tag}
            {remove ? (
              <button
                type="button"
                aria-label={`Remove tag ${tag}`}
                disabled={removing === tag}
                onClick={remove}
                className="rounded-full px-1.5 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
              >
                ×
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
