import { texts } from '@photo/contract';

export function TagList({ tags }: { tags: string[] }) {
  if (tags.length === 0) return <p className="text-sm text-slate-500">{texts.NO_TAGS}</p>;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-2">
      {tags.map((tag) => (
        <li key={tag} className="rounded-full bg-indigo-50 px-3 py-1 text-sm text-indigo-800">
          #{tag}
        </li>
      ))}
    </ul>
  );
}
