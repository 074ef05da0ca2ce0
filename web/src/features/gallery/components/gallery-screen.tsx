import { useCallback, useId, useMemo, useState } from 'react';
import { texts } from '@photo/contract';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { GridSkeleton } from '@/components/ui/grid-skeleton';
import { Page, PageHeading } from '@/components/ui/page';
import { SelectableGrid } from '@/components/ui/selectable-grid';
import { ShareDialog } from '@/components/ui/share-dialog';
import { UnconfirmedAddressNote } from '@/components/ui/unconfirmed-address-note';
import { paths } from '@/config/paths';
import { useDetailLinkState } from '@/hooks/use-detail-link-state';
import { useInfiniteScroll } from '@/hooks/use-infinite-scroll';
import { useSelection } from '@/hooks/use-selection';
import { isAdmin } from '@/lib/auth';
import { toGridItems, uniqueImages } from '@/lib/images';
import { useGallery } from '../api/get-gallery';
import { ActionBar } from './action-bar';
import { AddTagsDialog } from './add-tags-dialog';
import { DeleteDialog } from './delete-dialog';
import { TagPanel } from './tag-panel';
import { useGalleryView } from './use-gallery-view';

type Dialog = 'add-tags' | 'delete' | 'share' | null;

/** Spec §2 Gallery: the infinite, virtualized grid with selection and the gallery actions. */
export function GalleryScreen() {
  const gallery = useGallery();
  const pages = gallery.data?.pages;
  const loaded = useMemo(() => uniqueImages(pages ?? []), [pages]);
  const view = useGalleryView(loaded);
  const { selected, toggle, selectAll, clear } = useSelection();
  const [dialog, setDialog] = useState<Dialog>(null);
  const tagPanelId = useId();

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = gallery;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  useInfiniteScroll(view.paging && hasNextPage && !isFetchingNextPage, loadMore);

  const items = useMemo(() => toGridItems(view.images), [view.images]);
  const ids = useMemo(() => items.map((item) => item.id), [items]);
  // In the default order the detail steps through the whole gallery, not only the loaded pages
  // (spec §4: previous/next wrap around the full list); a shuffled or filtered view hands its own list.
  const showsOwnList = view.mode === 'random' || view.filtering;
  const linkState = useDetailLinkState(showsOwnList ? ids : undefined);
  const selectedIds = ids.filter((id) => selected.has(id));
  const allSelected = ids.length > 0 && selectedIds.length === ids.length;
  const closeDialog = useCallback(() => setDialog(null), []);

  return (
    <Page>
      <PageHeading>Gallery</PageHeading>
      <ActionBar
        selectedCount={selectedIds.length}
        selectedIds={selectedIds}
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
            note={<UnconfirmedAddressNote />}
            action={<LinkButton to={paths.uploadImages.getHref()} variant="primary">Upload Images</LinkButton>}
          />
        )
      ) : null}
      {ids.length > 0 && !view.filterPending ? (
        <SelectableGrid label="Gallery" items={items} selected={selected} onToggle={toggle} linkState={linkState} />
      ) : null}
      {isFetchingNextPage ? (
        <p role="status" className="py-6 text-center text-slate-600">
          {texts.LOADING_MORE}
        </p>
      ) : null}

      {dialog === 'add-tags' ? <AddTagsDialog imageIds={selectedIds} onClose={closeDialog} /> : null}
      {dialog === 'delete' ? <DeleteDialog imageIds={selectedIds} onClose={closeDialog} onDeleted={clear} /> : null}
      {dialog === 'share' ? <ShareDialog imageIds={selectedIds} onClose={closeDialog} /> : null}
    </Page>
  );
}
