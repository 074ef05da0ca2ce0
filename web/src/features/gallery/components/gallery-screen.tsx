import { useCallback, useId, useState } from 'react';
import { texts } from '@photo/contract';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { GridSkeleton } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { SelectableGrid } from '@/components/ui/selectable-grid';
import { paths } from '@/config/paths';
import { useSelection } from '@/hooks/use-selection';
import { isAdmin } from '@/lib/auth';
import { toGridItems } from '@/lib/images';
import { useGallery } from '../api/get-gallery';
import { ActionBar } from './action-bar';
import { AddTagsDialog } from './add-tags-dialog';
import { DeleteDialog } from './delete-dialog';
import { ShareDialog } from './share-dialog';
import { TagPanel } from './tag-panel';
import { useGalleryView } from './use-gallery-view';
import { useInfiniteScroll } from './use-infinite-scroll';

type Dialog = 'add-tags' | 'delete' | 'share' | null;

/** Spec §2 Gallery: the infinite grid with selection and the gallery actions. */
export function GalleryScreen() {
  const gallery = useGallery();
  const loaded = gallery.data?.pages.flatMap((page) => page.images) ?? [];
  const view = useGalleryView(loaded);
  const { selected, toggle, selectAll, clear } = useSelection();
  const [dialog, setDialog] = useState<Dialog>(null);
  const tagPanelId = useId();

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = gallery;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  useInfiniteScroll(view.paging && hasNextPage && !isFetchingNextPage, loadMore);

  const ids = view.images.map((image) => image._id);
  const selectedIds = ids.filter((id) => selected.has(id));
  const allSelected = ids.length > 0 && selectedIds.length === ids.length;

  return (
    <Page>
      <PageHeading>Gallery</PageHeading>
      <ActionBar
        selectedCount={selectedIds.length}
        imageCount={ids.length}
        allSelected={allSelected}
        tagsOpen={view.mode === 'tags'}
        tagPanelId={tagPanelId}
        admin={isAdmin()}
        onRandomize={view.randomize}
        onToggleTags={view.toggleTagPanel}
        onAddTags={() => setDialog('add-tags')}
        onDelete={() => setDialog('delete')}
        onReset={view.reset}
        onSelectiveAccess={() => setDialog('share')}
        onToggleSelectAll={() => (allSelected ? clear() : selectAll(ids))}
      />
      {view.mode === 'tags' ? (
        <TagPanel id={tagPanelId} selected={view.tags} onToggle={view.toggleTag} onClose={view.closeTagPanel} />
      ) : null}

      {gallery.isPending || view.filterPending ? <GridSkeleton count={12} /> : null}
      {!gallery.isPending && !view.filterPending && ids.length === 0 ? (
        view.filtering ? (
          <EmptyState title="No images with these tags" action={<Button onClick={view.reset}>Reset Filter</Button>} />
        ) : (
          <EmptyState
            title="No photos yet"
            text="Upload your first photos to fill the gallery."
            action={<LinkButton to={paths.uploadImages.getHref()} variant="primary">Upload Images</LinkButton>}
          />
        )
      ) : null}
      {ids.length > 0 && !view.filterPending ? (
        <SelectableGrid
          label="Gallery"
          items={toGridItems(view.images, 'gallery')}
          selected={selected}
          onToggle={toggle}
        />
      ) : null}
      {isFetchingNextPage ? (
        <p role="status" className="py-6 text-center text-slate-600">
          {texts.LOADING_MORE}
        </p>
      ) : null}

      {dialog === 'add-tags' ? <AddTagsDialog imageIds={selectedIds} onClose={() => setDialog(null)} /> : null}
      {dialog === 'delete' ? <DeleteDialog imageIds={selectedIds} onClose={() => setDialog(null)} onDeleted={clear} /> : null}
      {dialog === 'share' ? <ShareDialog imageIds={selectedIds} onClose={() => setDialog(null)} /> : null}
    </Page>
  );
}
