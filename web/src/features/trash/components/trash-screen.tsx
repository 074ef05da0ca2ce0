import { useMemo, useState } from 'react';
import { toast } from 'react-toastify';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import type { GridItem } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { SelectableGrid } from '@/components/ui/selectable-grid';
import { Loading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useRestore, useTrash } from '../api/trash';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';

/**
 * /trash: what the person deleted (everything deleted, for an admin), newest deleted first. A
 * selection can be restored — back everywhere with its tags, likes and shares — or deleted for
 * good; Empty Trash deletes everything here for good. The rest goes by itself after TRASH_DAYS.
 */
export function TrashScreen() {
  const trash = useTrash();
  const restore = useRestore();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<'selection' | 'all' | null>(null);

  const pages = trash.data?.pages ?? [];
  const total = pages[0]?.pagination.totalImages ?? 0;
  const trashDays = pages[0]?.trashDays ?? 30;
  const items = useMemo<GridItem[]>(
    () =>
      pages.flatMap((page) =>
        page.images.map((image) => ({
          id: image._id,
          name: image.imageName,
          thumbnail: image.thumbnailURL,
          placeholder: image.placeholder,
          width: image.width,
          height: image.height,
        })),
      ),
    [pages],
  );
  const selectedIds = items.filter((item) => selected.has(item.id)).map((item) => item.id);
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const clear = () => setSelected(new Set());

  if (trash.isPending) return <Loading />;

  const restoreSelected = () =>
    restore.mutate(selectedIds, {
      onSuccess: ({ message }) => {
        toast.success(message);
        clear();
      },
      onError: () => toast.error('The photos could not be restored. Please try again.'),
    });

  return (
    <Page>
      <PageHeading
        actions={
          items.length > 0 ? (
            <Button variant="danger" onClick={() => setDialog('all')}>
              Empty Trash
            </Button>
          ) : null
        }
      >
        Trash
      </PageHeading>
      {trash.isError ? (
        <EmptyState title="The Trash could not be loaded" action={<Button onClick={() => void trash.refetch()}>Try again</Button>} />
      ) : items.length === 0 ? (
        <EmptyState
          title="The Trash is empty"
          text="Photos you delete wait here, so you can bring them back."
          action={<LinkButton to={paths.home.getHref()}>Go to the gallery</LinkButton>}
        />
      ) : (
        <>
          <p className="mb-4 text-slate-600">
            {trashDays > 0
              ? `${total} photo${total === 1 ? '' : 's'} in the Trash. Photos are deleted for good ${trashDays} day${trashDays === 1 ? '' : 's'} after they were deleted.`
              : `${total} photo${total === 1 ? '' : 's'} in the Trash.`}
          </p>
          <div className="mb-4 flex flex-wrap items-center gap-2" role="toolbar" aria-label="Selected photos">
            <span className="mr-2 text-sm text-slate-700">{selectedIds.length} selected</span>
            <Button variant="secondary" onClick={() => setSelected(new Set(items.map((item) => item.id)))}>
              Select all
            </Button>
            <Button onClick={restoreSelected} disabled={selectedIds.length === 0 || restore.isPending}>
              {restore.isPending ? 'Restoring...' : 'Restore'}
            </Button>
            <Button variant="danger" onClick={() => setDialog('selection')} disabled={selectedIds.length === 0}>
              Delete forever
            </Button>
          </div>
          <SelectableGrid label="Photos in the Trash" items={items} selected={selected} onToggle={toggle} />
          {trash.hasNextPage ? (
            <div className="mt-6 flex justify-center">
              <Button variant="secondary" onClick={() => void trash.fetchNextPage()} disabled={trash.isFetchingNextPage}>
                {trash.isFetchingNextPage ? 'Loading...' : 'Show more'}
              </Button>
            </div>
          ) : null}
        </>
      )}
      {dialog ? (
        <ConfirmDeleteDialog
          imageIds={dialog === 'selection' ? selectedIds : 'all'}
          count={dialog === 'selection' ? selectedIds.length : total}
          onClose={() => setDialog(null)}
          onDeleted={clear}
        />
      ) : null}
    </Page>
  );
}
