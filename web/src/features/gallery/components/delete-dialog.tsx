import { toast } from 'react-toastify';
import { texts } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { serverMessage } from '@/lib/api-client';
import { useDeleteImages } from '../api/gallery-actions';

type DeleteDialogProps = { imageIds: string[]; onClose: () => void; onDeleted: () => void };

/** Asks before deleting; the server deletes all or nothing and names a refused image (DECISIONS §3). */
export function DeleteDialog({ imageIds, onClose, onDeleted }: DeleteDialogProps) {
  const remove = useDeleteImages();
  const count = imageIds.length;

  if (count === 0) {
    return (
      <Modal title="Delete images" onClose={onClose}>
        <FormError>{texts.SELECT_ONE_IMAGE}</FormError>
        <div className="mt-4 flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      </Modal>
    );
  }

  const confirm = () =>
    remove.mutate(imageIds, {
      onSuccess: ({ message }) => {
        toast.success(message);
        onDeleted();
        onClose();
      },
      onError: (error) => console.error('Error deleting images:', error),
    });

  return (
    <Modal title={`Delete ${count} image${count === 1 ? '' : 's'}?`} onClose={onClose}>
      <p className="mb-4 text-slate-700">They move to the Trash, where you can restore them.</p>
      {remove.isError ? <FormError>{serverMessage(remove.error) ?? 'The images could not be deleted.'}</FormError> : null}
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={confirm} disabled={remove.isPending}>
          {remove.isPending ? 'Deleting...' : 'Delete'}
        </Button>
      </div>
    </Modal>
  );
}
