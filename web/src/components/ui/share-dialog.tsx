import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { texts } from '@photo/contract';
import { isApiError, serverMessage } from '@/lib/api-client';
import { parseEmails, useShareRestricted } from '@/lib/share-images';
import { Button } from './button';
import { FormError, TextField } from './form-field';
import { Modal } from './modal';

/** Why nothing was shared: the server's own words (a wrong address, an image that is not the sharer's), else what we know. */
function shareFailureText(error: Error): string {
  const message = serverMessage(error);
  if (message) return message;
  if (isApiError(error) && error.status === 0) return error.message;
  return 'Nothing was shared. Please try again.';
}

type ShareDialogProps = { imageIds: string[]; onClose: () => void; title?: string };

/** Selective Access: share the given images with the addresses typed in. */
export function ShareDialog({ imageIds, onClose, title = 'Selective Access' }: ShareDialogProps) {
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
        // Spec §8: share failures are logged; the dialog shows the server's reason as well.
        onError: (error) => console.error('Error sharing images:', error),
      },
    );
  };

  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextField
          label={`Share ${imageIds.length} image${imageIds.length === 1 ? '' : 's'} with`}
          placeholder="Enter emails, separated by commas"
          hint="Each address receives an e-mail with a link."
          required
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            // The reason was about what was typed before.
            if (share.isError) share.reset();
          }}
        />
        {/* Spec §5: the restricted share needs at least one selected image. */}
        {imageIds.length === 0 ? <FormError>{texts.SELECT_ONE_IMAGE}</FormError> : null}
        {share.isError ? <FormError>{shareFailureText(share.error)}</FormError> : null}
        <div className="flex justify-end">
          <Button type="submit" disabled={share.isPending || imageIds.length === 0}>
            Share
          </Button>
        </div>
      </form>
    </Modal>
  );
}
