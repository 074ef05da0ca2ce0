import { toast } from 'react-toastify';
import { texts, type Image } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { Thumbnail } from '@/components/ui/thumbnail';
import { serverMessage } from '@/lib/api-client';
import { mayDeleteImage } from '@/lib/auth';
import { useDeleteImages } from '../api/gallery-actions';

type DeleteDialogProps = { images: readonly Image[]; onClose: () => void; onDeleted: () => void };

/** How many of the photos that are not yours the dialog shows; the rest are counted. */
const SHOWN_NOT_YOURS = 12;

const imagesText = (count: number) => `${count} image${count === 1 ? '' : 's'}`;

/**
 * Asks before deleting. Only the uploader (or an admin) may delete a photo, and the server deletes
 * all or nothing (DECISIONS §3), so the dialog says up front which selected photos are not yours
 * and offers to delete the rest, rather than letting the whole delete fail. The server still
 * decides, and its refusal is shown.
 */
export function DeleteDialog({ images, onClose, onDeleted }: DeleteDialogProps) {
  const remove = useDeleteImages();
  const count = images.length;

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

  const mine = images.filter(mayDeleteImage);
  const notMine = images.filter((image) => !mayDeleteImage(image));

  if (mine.length === 0) {
    return (
      <Modal title={`Delete ${imagesText(count)}?`} onClose={onClose}>
        <p className="mb-4 text-slate-700">
          {count === 1 ? 'This photo is not yours, so you cannot delete it.' : 'None of these photos are yours, so you cannot delete them.'} Only
          the person who uploaded a photo can delete it.
        </p>
        <NotYours images={notMine} />
        <div className="mt-4 flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      </Modal>
    );
  }

  const confirm = () =>
    remove.mutate(
      mine.map((image) => image._id),
      {
        onSuccess: ({ message }) => {
          toast.success(message);
          onDeleted();
          onClose();
        },
        onError: (error) => console.error('Error deleting images:', error),
      },
    );

  const title = notMine.length === 0 ? `Delete ${imagesText(count)}?` : `Delete ${mine.length} of ${imagesText(count)}?`;
  return (
    <Modal title={title} onClose={onClose}>
      {notMine.length > 0 ? (
        <>
          <p className="mb-3 text-slate-700">
            {notMine.length === 1 ? 'This selected photo is not yours, so it stays' : `These ${notMine.length} selected photos are not yours, so they stay`}: only
            the person who uploaded a photo can delete it.
          </p>
          <NotYours images={notMine} />
          <p className="mt-4 mb-4 text-slate-700">
            Your {imagesText(mine.length)} move{mine.length === 1 ? 's' : ''} to the Trash, where you can restore {mine.length === 1 ? 'it' : 'them'}.
          </p>
        </>
      ) : (
        <p className="mb-4 text-slate-700">They move to the Trash, where you can restore them.</p>
      )}
      {remove.isError ? <FormError>{serverMessage(remove.error) ?? 'The images could not be deleted.'}</FormError> : null}
      <div className="mt-4 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={confirm} disabled={remove.isPending}>
          {remove.isPending ? 'Deleting...' : notMine.length === 0 ? 'Delete' : `Delete ${imagesText(mine.length)}`}
        </Button>
      </div>
    </Modal>
  );
}

/** Small pictures of the selected photos that are not yours, named by their alt text. */
function NotYours({ images }: { images: readonly Image[] }) {
  const shown = images.slice(0, SHOWN_NOT_YOURS);
  const more = images.length - shown.length;
  return (
    <ul aria-label="Not yours" className="flex flex-wrap gap-2">
      {shown.map((image) => (
        <li key={image._id} title={image.imageName} className="size-14 shrink-0 overflow-hidden rounded-md ring-1 ring-slate-200">
          <Thumbnail
            src={image.thumbnailURL ?? image.trimmedURL}
            alt={image.imageName}
            placeholder={image.placeholder}
            width={1}
            height={1}
            className="size-full"
          />
        </li>
      ))}
      {more > 0 ? <li className="flex size-14 items-center justify-center rounded-md bg-slate-100 text-sm text-slate-600">+{more}</li> : null}
    </ul>
  );
}
