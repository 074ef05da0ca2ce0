import { useMemo, useRef, useState } from 'react';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { GridSkeleton } from '@/components/ui/grid-skeleton';
import { ImageGrid } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { useDetailLinkState } from '@/hooks/use-detail-link-state';
import { isShownInGallery, toGridItems } from '@/lib/images';
import { keepingOrder } from '@/lib/shuffle';
import { useAllImages } from '../api/get-library';

/** Spec §2 "/random": browse every visible image in a random order. */
export function RandomScreen() {
  const images = useAllImages();
  const [round, setRound] = useState(0);
  const visible = useMemo(() => (images.data ?? []).filter(isShownInGallery), [images.data]);
  // Each Shuffle click (`round`) draws a new order; the list read again every 30 s keeps it.
  const drawn = useRef<{ round: number; ids: string[] }>({ round, ids: [] });
  const order = useMemo(() => {
    const previous = drawn.current.round === round ? drawn.current.ids : [];
    const next = keepingOrder(previous, visible);
    drawn.current = { round, ids: next.map((image) => image._id) };
    return next;
  }, [visible, round]);
  const items = useMemo(() => toGridItems(order), [order]);
  // ← and → in the detail follow this shuffled order.
  const ids = useMemo(() => order.map((image) => image._id), [order]);
  const linkState = useDetailLinkState(ids);

  return (
    <Page>
      <PageHeading
        actions={
          <Button variant="secondary" onClick={() => setRound((value) => value + 1)} disabled={visible.length < 2}>
            Shuffle
          </Button>
        }
      >
        Random
      </PageHeading>
      {images.isPending ? <GridSkeleton /> : null}
      {images.isError && images.data === undefined ? (
        <EmptyState title="Images could not be loaded" action={<Button onClick={() => void images.refetch()}>Try again</Button>} />
      ) : null}
      {images.isSuccess && order.length === 0 ? (
        <EmptyState
          title="No photos yet"
          text="Upload photos to browse them here."
          action={<LinkButton to={paths.uploadImages.getHref()} variant="primary">Upload Images</LinkButton>}
        />
      ) : null}
      {items.length > 0 ? <ImageGrid label="Random images" items={items} linkState={linkState} /> : null}
    </Page>
  );
}
