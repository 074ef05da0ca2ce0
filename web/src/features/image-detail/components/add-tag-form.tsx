import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { useAddTagToImage } from '../api/image-actions';

/** Spec §2 Shared image detail: "#" prefix, placeholder 'Add a new tag', Add; Enter saves one tag. */
export function AddTagForm({ imageId }: { imageId: string }) {
  const [tag, setTag] = useState('');
  const addTag = useAddTagToImage(imageId);
  const inputId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = tag.trim();
    if (!value) return;
    addTag.mutate(value, { onSuccess: () => setTag('') });
  };

  return (
    <form onSubmit={onSubmit} className="flex items-center gap-2">
      <label htmlFor={inputId} className="sr-only">
        New tag
      </label>
      <span aria-hidden="true" className="text-lg text-slate-500">
        #
      </span>
      <input
        id={inputId}
        value={tag}
        onChange={(event) => setTag(event.target.value)}
        placeholder="Add a new tag"
        className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
      />
      <Button type="submit" disabled={addTag.isPending}>
        Add
      </Button>
    </form>
  );
}
