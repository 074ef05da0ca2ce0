import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { serverMessage } from '@/lib/api-client';
import { useAddTags } from '../api/gallery-actions';
import { useCommonTags } from '../api/get-selection-tags';
import { TagChipsInput } from './tag-chips-input';
import { splitTags } from './tag-text';

/** Gallery Add Tags: chips with suggestions, saved onto every selected image. */
export function AddTagsDialog({ imageIds, onClose }: { imageIds: string[]; onClose: () => void }) {
  const [tags, setTags] = useState<string[]>([]);
  const [draft, setDraft] = useState('');
  // Spec §5: with nothing selected the dialog says so at once, instead of after a save attempt.
  const [error, setError] = useState<string | null>(imageIds.length === 0 ? texts.SELECT_ONE_IMAGE : null);
  /** The server's reason beside spec §8's message, when it refused the tags (one too long, say). */
  const [reason, setReason] = useState<string | null>(null);
  const addTags = useAddTags();
  const common = useCommonTags(imageIds);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const all = [...new Set([...tags, ...splitTags(draft)])];
    setReason(null);
    // Spec §5: at least one image and at least one tag.
    if (imageIds.length === 0) return setError(texts.SELECT_ONE_IMAGE);
    if (all.length === 0) return setError(texts.ENTER_ONE_TAG);
    setError(null);
    addTags.mutate(
      { tags: all, imageIds },
      {
        onSuccess: () => {
          toast.success(`Tags added to ${imageIds.length} image${imageIds.length === 1 ? '' : 's'}.`);
          onClose();
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
    <Modal title="Add Tags" onClose={onClose}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <TagChipsInput
          label={`Tags for ${imageIds.length} selected image${imageIds.length === 1 ? '' : 's'}`}
          value={tags}
          onChange={setTags}
          draft={draft}
          onDraftChange={setDraft}
          alreadyOnAll={common}
        />
        {common.length > 0 ? (
          <p className="text-sm text-slate-600">
            {imageIds.length === 1 ? 'Already on this image' : 'Already on every selected image'}:{' '}
            {common.map((tag) => `#${tag}`).join(' ')}
          </p>
        ) : null}
        <FormError>
          {error}
          {error && reason ? <span className="block">{reason}</span> : null}
        </FormError>
        <div className="flex justify-end">
          <Button type="submit" disabled={addTags.isPending || imageIds.length === 0}>
            Save Tags
          </Button>
        </div>
      </form>
    </Modal>
  );
}
