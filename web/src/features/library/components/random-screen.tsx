import { useMemo, useState } from 'react';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { GridSkeleton, ImageGrid } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { shuffled } from '@/lib/shuffle';
import { isShownInGallery, toGridItems } from '@/lib/images';
import { useAllImages } from '../api/get-library';

/** Spec §2 "/random": browse every visible image in a random order. */
export function RandomScreen() {
  const images = useAllImages();
  const [round, setRound] = useState(0);
  const visible = useMemo(() => (images.data ?? []).filter(isShownInGallery), [images.data]);
  // `round` is a deliberate dependency: each Shuffle click draws a new order.
  const order = useMemo(() => shuffled(visible), [visible, round]);

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
      {images.isError ? (
        <EmptyState title="Images could not be loaded" action={<Button onClick={() => void images.refetch()}>Try again</Button>} />
      ) : null}
      {images.isSuccess && order.length === 0 ? (
        <EmptyState
          title="No photos yet"
          text="Upload photos to browse them here."
          action={<LinkButton to={paths.uploadImages.getHref()} variant="primary">Upload Images</LinkButton>}
        />
      ) : null}
      {order.length > 0 ? <ImageGrid label="Random images" items={toGridItems(order, 'gallery')} /> : null}
    </Page>
  );
}
