import { texts } from '@photo/contract';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ImageGrid, type GridItem } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import type { ImageDetailState } from '@/lib/images';
import { usePhotosImIn } from '../api/get-photos-im-in';

/** Spec §2 "Photos I'm in": the photos I marked myself in. */
export function PhotosImInScreen() {
  const photos = usePhotosImIn();

  if (photos.isPending) return <Loading />;

  return (
    <Page>
      <PageHeading>Photos I&apos;m in</PageHeading>
      {photos.isError ? (
        <EmptyState
          title="Your photos could not be loaded"
          action={<Button onClick={() => void photos.refetch()}>Try again</Button>}
        />
      ) : photos.data.length === 0 ? (
        <EmptyState
          title="No photos yet"
          text={`Open a photo and choose "${texts.IM_IN_THIS_PHOTO}" to find it here later.`}
          action={<LinkButton to={paths.home.getHref()}>Go to the gallery</LinkButton>}
        />
      ) : (
        <ImageGrid label="Photos I'm in" items={toItems(photos.data)} showTags />
      )}
    </Page>
  );
}

function toItems(photos: { id: string; imageUrl: string | null; imageName: string; tags: string[] }[]): GridItem[] {
  // Spec §2: a click opens the detail with the list and the path it came from.
  const state: ImageDetailState = { ids: photos.map((photo) => photo.id), origin: 'home' };
  return photos.map((photo) => ({
    id: photo.id,
    name: photo.imageName,
    thumbnail: photo.imageUrl,
    href: paths.image.getHref(photo.id),
    tags: photo.tags,
    state,
  }));
}
