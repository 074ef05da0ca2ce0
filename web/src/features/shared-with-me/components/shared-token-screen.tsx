import { EmptyState } from '@/components/ui/empty-state';
import { ImageGrid } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { texts } from '@photo/contract';
import { isNotFound, serverMessage } from '@/lib/api-client';
import { toGridItems } from '@/lib/images';
import { useSharedImages } from '../api/get-shared-images';

/** Spec §2 "/shared/:token": Loading..., then the images shared with me, or the server's message. */
export function SharedTokenScreen() {
  const shared = useSharedImages();

  if (shared.isPending) return <Loading />;

  const images = shared.data?.images ?? [];
  if (images.length === 0) {
    const message = shared.isError
      ? isNotFound(shared.error)
        ? 'No images have been shared with you yet.'
        : (serverMessage(shared.error) ?? texts.SHARED_IMAGES_FAILED)
      : shared.data.message;
    return (
      <Page>
        <EmptyState as="h1" title="Shared images" text={message} />
      </Page>
    );
  }

  return (
    <Page>
      <PageHeading>Shared images</PageHeading>
      <ImageGrid label="Shared images" items={toGridItems(images, 'shared')} />
    </Page>
  );
}
