import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form-field';
import { serverMessage } from '@/lib/api-client';
import { withoutHashPrefix } from '@/lib/tag-input';
import { useAddCustomTags } from '../api/search-images';

/** Spec §5: comma-separated, trimmed and lower-cased; a leading "#" is dropped (tags are shown with one). */
export function parseCustomTags(text: string): string[] {
  return [...new Set(text.split(',').map((tag) => withoutHashPrefix(tag).toLowerCase()).filter(Boolean))];
}

type CustomTagsFormProps = { query: string; selectedIds: string[]; onDone: () => void };

/** Adds custom tags to the selected search results; with none selected it says so (spec §5). */
export function CustomTagsForm({ query, selectedIds, onDone }: CustomTagsFormProps) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** The server's reason beside spec §8's message, when it refused the tags (one too long, say). */
  const [reason, setReason] = useState<string | null>(null);
  const addTags = useAddCustomTags(query);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setReason(null);
    if (selectedIds.length === 0) return setError(texts.SELECT_ONE_IMAGE);
    const tags = parseCustomTags(text);
    if (tags.length === 0) return setError(texts.ENTER_ONE_TAG);
    setError(null);
    addTags.mutate(
      { tags, imageIds: selectedIds },
      {
        onSuccess: () => {
          toast.success(`Tags added to ${selectedIds.length} image${selectedIds.length === 1 ? '' : 's'}.`);
          setText('');
          onDone();
        },
        onError: (err) => {
          console.error('Error saving tags:', err);
          setError(texts.TAGS_SAVE_FAILED);
          setReason(serverMessage(err) ?? null);
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} className="mb-6 flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:flex-wrap sm:items-end">
      <div className="flex-1">
        <TextField
          label={`Custom tags for ${selectedIds.length} selected`}
          placeholder="e.g. beach, summer"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <Button type="submit" disabled={addTags.isPending}>
        Add Tags
      </Button>
      {error ? (
        <div className="w-full sm:basis-full">
          <FormError>
            {error}
            {reason ? <span className="block">{reason}</span> : null}
          </FormError>
        </div>
      ) : null}
    </form>
  );
}
