import { toast } from 'react-toastify';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { serverMessage } from '@/lib/api-client';
import { useDeleteForever, useEmptyTrash } from '../api/trash';

type ConfirmDeleteDialogProps = {
  /** The selection, or 'all' to empty the Trash. */
  imageIds: string[] | 'all';
  count: number;
  onClose: () => void;
  onDeleted: () => void;
};

/** Asks before deleting for good: from the Trash there is no way back. */
export function ConfirmDeleteDialog({ imageIds, count, onClose, onDeleted }: ConfirmDeleteDialogProps) {
  const deleteForever = useDeleteForever();
  const empty = useEmptyTrash();
  const running = imageIds === 'all' ? empty : deleteForever;
  const handlers = {
    onSuccess: ({ message }: { message: string }) => {
      toast.success(message);
      onDeleted();
      onClose();
    },
  };
  const confirm = () => (imageIds === 'all' ? empty.mutate(undefined, handlers) : deleteForever.mutate(imageIds, handlers));
  const photos = `${count} photo${count === 1 ? '' : 's'}`;

  return (
    <Modal title={imageIds === 'all' ? 'Empty the Trash?' : `Delete ${photos} forever?`} onClose={onClose}>
      <p className="mb-4 text-slate-700">
        {imageIds === 'all' ? `All ${photos} in the Trash will be deleted for good.` : `The ${photos} will be deleted for good.`} This
        cannot be undone.
      </p>
      {running.isError ? <FormError>{serverMessage(running.error) ?? 'The photos could not be deleted.'}</FormError> : null}
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={confirm} disabled={running.isPending}>
          {running.isPending ? 'Deleting...' : imageIds === 'all' ? 'Empty Trash' : 'Delete forever'}
        </Button>
      </div>
    </Modal>
  );
}
