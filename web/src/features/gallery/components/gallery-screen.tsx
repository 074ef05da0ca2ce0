import { useCallback, useId, useMemo, useState } from 'react';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { GridSkeleton } from '@/components/ui/grid-skeleton';
import { Page, PageHeading } from '@/components/ui/page';
import { SelectableGrid } from '@/components/ui/selectable-grid';
import { ShareDialog } from '@/components/ui/share-dialog';
import { UnconfirmedAddressNote } from '@/components/ui/unconfirmed-address-note';
import { paths } from '@/config/paths';
import { useDetailLinkState } from '@/hooks/use-detail-link-state';
import { useSelection } from '@/hooks/use-selection';
import { isAdmin } from '@/lib/auth';
import { toGridItems } from '@/lib/images';
import { useTimeline } from '../api/get-timeline';
import { TIMELINE_PAGE_SIZE, useCachedMonthPages } from '../api/get-timeline-month';
import { ActionBar } from './action-bar';
import { AddTagsDialog } from './add-tags-dialog';
import { DeleteDialog } from './delete-dialog';
import { TagPanel } from './tag-panel';
import { loadedImagesOf, summarizeMonth, type LoadedMonth } from './timeline/loaded-months';
import { Timeline } from './timeline/timeline';
import { useGalleryView } from './use-gallery-view';

type Dialog = 'add-tags' | 'delete' | 'share' | null;

/**
 * Spec §2 Gallery: the timeline of the whole library (issue 11), or the shuffled or tag-filtered
 * grid, with selection and the gallery actions. Select All, Randomize and the counts act on the
 * loaded photos (spec §2), which are the timeline's loaded months.
 */
export function GalleryScreen() {
  const timeline = useTimeline();
  const cachedPages = useCachedMonthPages();
  const loadedMonths = useMemo(() => {
    const months = new Map<string, LoadedMonth>();
    for (const [month, pages] of cachedPages) months.set(month, summarizeMonth(pages, TIMELINE_PAGE_SIZE));
    return months;
  }, [cachedPages]);
  const loaded = useMemo(() => loadedImagesOf(loadedMonths), [loadedMonths]);
  const view = useGalleryView(loaded);
  const { selected, toggle, selectAll, clear } = useSelection();
  const [dialog, setDialog] = useState<Dialog>(null);
  const tagPanelId = useId();

  const showsTimeline = view.showsTimeline;
  const items = useMemo(() => (showsTimeline ? [] : toGridItems(view.images)), [showsTimeline, view.images]);
  const ids = useMemo(() => view.images.map((image) => image._id), [view.images]);
  // In the timeline the detail steps through the whole gallery, not only the loaded months (spec §4:
  // previous/next wrap around the full list); a shuffled or filtered view hands its own list.
  const linkState = useDetailLinkState(showsTimeline ? undefined : ids);
  const selectedImages = useMemo(() => view.images.filter((image) => selected.has(image._id)), [view.images, selected]);
  const selectedIds = selectedImages.map((image) => image._id);
  const allSelected = ids.length > 0 && selectedIds.length === ids.length;
  const closeDialog = useCallback(() => setDialog(null), []);

  const months = timeline.data?.months ?? [];
  const empty = showsTimeline ? !timeline.isPending && months.length === 0 : !view.filterPending && ids.length === 0;

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

      {(showsTimeline && timeline.isPending) || view.filterPending ? <GridSkeleton count={12} /> : null}
      {empty ? (
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
      {showsTimeline && timeline.data && months.length > 0 ? (
        <Timeline timeline={timeline.data} loadedMonths={loadedMonths} selected={selected} onToggle={toggle} linkState={linkState} />
      ) : null}
      {!showsTimeline && ids.length > 0 && !view.filterPending ? (
        <SelectableGrid label="Gallery" items={items} selected={selected} onToggle={toggle} linkState={linkState} />
      ) : null}

      {dialog === 'add-tags' ? <AddTagsDialog imageIds={selectedIds} onClose={closeDialog} /> : null}
      {dialog === 'delete' ? <DeleteDialog images={selectedImages} onClose={closeDialog} onDeleted={clear} /> : null}
      {dialog === 'share' ? <ShareDialog imageIds={selectedIds} onClose={closeDialog} /> : null}
    </Page>
  );
}
