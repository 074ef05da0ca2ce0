import { useMemo } from 'react';
import { texts } from '@photo/contract';
import { EmptyState } from '@/components/ui/empty-state';
import { ImageGrid } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { UnconfirmedAddressNote } from '@/components/ui/unconfirmed-address-note';
import { useDetailLinkState } from '@/hooks/use-detail-link-state';
import { isNotFound, serverMessage } from '@/lib/api-client';
import { toGridItems } from '@/lib/images';
import { useSharedImages } from '../api/get-shared-images';

/** Spec §2 "/shared/:token": Loading..., then thumbnails opening /image/{id}, or the server's message. */
export function SharedTokenScreen() {
  const shared = useSharedImages();
  const images = shared.data?.images;
  const ids = useMemo(() => (images ?? []).map((image) => image._id), [images]);
  const linkState = useDetailLinkState(ids);

  if (shared.isPending) return <Loading />;

  if (!images || images.length === 0) {
    const message = shared.isError
      ? isNotFound(shared.error)
        ? 'No images have been shared with you yet.'
        : (serverMessage(shared.error) ?? texts.SHARED_IMAGES_FAILED)
      : shared.data?.message;
    return (
      <Page>
        <EmptyState as="h1" title="Shared images" text={message} note={<UnconfirmedAddressNote />} />
      </Page>
    );
  }

  return (
    <Page>
      <PageHeading>Shared images</PageHeading>
      {/* Spec §9: lazy thumbnails (400px, 100 ms) on the shared grids. */}
      <ImageGrid label="Shared images" items={toGridItems(images)} linkState={linkState} lazy="near" />
    </Page>
  );
}
