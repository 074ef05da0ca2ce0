import { useState, type KeyboardEvent } from 'react';
import { useEditTag } from '../api/admin-tags';
import { planTagEdit } from './group-tags';

/** One tag as an editable text box; Enter commits (spec §2/§4). */
export function TagInput({ tag, allTags }: { tag: string; allTags: string[] }) {
  const [value, setValue] = useState(tag);
  const edit = useEditTag();

  const commit = () => {
    const plan = planTagEdit(tag, value, allTags);
    if (plan.kind === 'none') return; // spec §4: no change, no call
    edit.mutate(
      {
        oldTagValue: tag,
        newTagValue: plan.kind === 'rename' ? plan.to : plan.into,
        mergeInto: plan.kind === 'merge' ? plan.into : undefined,
      },
      { onError: () => setValue(tag) },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape') {
      setValue(tag);
    }
  };

  return (
    <input
      aria-label={`Tag ${tag}`}
      value={value}
      disabled={edit.isPending}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={onKeyDown}
      className="w-full rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
    />
  );
}
