import { useMemo } from 'react';
import { useParams } from 'react-router';
import { texts } from '@photo/contract';
import { LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ImageGrid, type GridItem } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { DownloadButton } from '@/components/downloads';
import { Loading } from '@/components/ui/spinner';
import { UnconfirmedAddressNote } from '@/components/ui/unconfirmed-address-note';
import { paths } from '@/config/paths';
import { useDetailLinkState } from '@/hooks/use-detail-link-state';
import { useSharedWithMe } from '../api/get-shared-with-me';
import { LoadError } from './load-error';

/** Spec §2: the images one person shared with me; a click opens /image/{imageId}. */
export function SharerImagesScreen() {
  const { userName = '' } = useParams();
  const shared = useSharedWithMe();
  const sharer = shared.data?.data.sharedBy.find((entry) => entry.sharedByUserName === userName);
  const records = shared.data?.userAccessData;
  const items = useMemo<GridItem[]>(() => {
    // The full records (when the server sent them) give each tile its shape and blur-up placeholder.
    const byId = new Map((records ?? []).map((record) => [record._id, record]));
    return (sharer?.images ?? []).map((image) => {
      const record = byId.get(image.imageId);
      return {
        id: image.imageId,
        name: image.imageName,
        thumbnail: image.imageThumbnail,
        placeholder: record?.placeholder,
        width: record?.width,
        height: record?.height,
        href: paths.image.getHref(image.imageId),
        tags: image.tags,
      };
    });
  }, [sharer, records]);
  const ids = useMemo(() => items.map((item) => item.id), [items]);
  const linkState = useDetailLinkState(ids);

  if (shared.isPending) return <Loading />;
  // Read again every 30 s; a failed refresh keeps the images on screen.
  if (shared.data === undefined) {
    return (
      <Page>
        <LoadError onRetry={() => void shared.refetch()} />
      </Page>
    );
  }

  if (!sharer) {
    return (
      <Page>
        <EmptyState
          as="h1"
          title={texts.USER_NOT_FOUND}
          text={`No shared images were found for "${userName}".`}
          note={<UnconfirmedAddressNote />}
          action={<LinkButton to={paths.sharedMedia.getHref()}>Back to Shared with me</LinkButton>}
        />
      </Page>
    );
  }

  return (
    <Page>
      <p className="mb-1 text-sm text-slate-600">Images: {sharer.totalImagesShared}</p>
      <PageHeading actions={<DownloadButton kind="zip" imageIds={ids} />}>Images Collection</PageHeading>
      <ImageGrid
        label={`Images shared by ${sharer.sharedByUserName}`}
        items={items}
        linkState={linkState}
        lazy="near"
        showTags
      />
    </Page>
  );
}
