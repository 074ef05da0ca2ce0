import { useMemo } from 'react';
import { texts } from '@photo/contract';
import { Button, LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ImageGrid, type GridItem } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useDetailLinkState } from '@/hooks/use-detail-link-state';
import { usePhotosImIn } from '../api/get-photos-im-in';

/** Spec §2 "Photos I'm in": a click opens /image/{id} with the image list and the origin path. */
export function PhotosImInScreen() {
  const photos = usePhotosImIn();
  const items = useMemo<GridItem[]>(
    () =>
      (photos.data ?? []).map((photo) => ({
        id: photo.id,
        name: photo.imageName,
        thumbnail: photo.imageUrl,
        href: paths.image.getHref(photo.id),
        tags: photo.tags,
      })),
    [photos.data],
  );
  const ids = useMemo(() => items.map((item) => item.id), [items]);
  const linkState = useDetailLinkState(ids);

  if (photos.isPending) return <Loading />;

  return (
    <Page>
      <PageHeading>Photos I&apos;m in</PageHeading>
      {photos.isError ? (
        <EmptyState
          title="Your photos could not be loaded"
          action={<Button onClick={() => void photos.refetch()}>Try again</Button>}
        />
      ) : items.length === 0 ? (
        <EmptyState
          title="No photos yet"
          text={`Open a photo and choose "${texts.IM_IN_THIS_PHOTO}" to find it here later.`}
          action={<LinkButton to={paths.home.getHref()}>Go to the gallery</LinkButton>}
        />
      ) : (
        <ImageGrid label="Photos I'm in" items={items} linkState={linkState} showTags />
      )}
    </Page>
  );
}
