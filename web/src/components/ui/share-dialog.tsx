import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError, TextField } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { useShareRestricted } from '../api/gallery-actions';

/** Spec §5: addresses entered comma-separated and trimmed. */
export function parseEmails(text: string): string[] {
  return text.split(',').map((email) => email.trim()).filter(Boolean);
}

/** Selective Access: share the selected images with the given addresses. */
export function ShareDialog({ imageIds, onClose }: { imageIds: string[]; onClose: () => void }) {
  const [text, setText] = useState('');
  const share = useShareRestricted();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const emails = parseEmails(text);
    if (emails.length === 0) return;
    share.mutate(
      { imageIds, emails },
      {
        onSuccess: () => {
          toast.success(texts.EMAIL_SENT);
          onClose();
        },
        // Spec §8: share failures are only logged.
        onError: (error) => console.error('Error sharing images:', error),
      },
    );
  };

  return (
    <Modal title="Selective Access" onClose={onClose}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextField
          label={`Share ${imageIds.length} image${imageIds.length === 1 ? '' : 's'} with`}
          placeholder="Enter emails, separated by commas"
          hint="Each address receives an e-mail with a link."
          required
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        {/* Spec §5: the restricted share needs at least one selected image. */}
        {imageIds.length === 0 ? <FormError>{texts.SELECT_ONE_IMAGE}</FormError> : null}
        <div className="flex justify-end">
          <Button type="submit" disabled={share.isPending || imageIds.length === 0}>
            Share
          </Button>
        </div>
      </form>
    </Modal>
  );
}
