import { useMemo } from 'react';
import { useParams } from 'react-router';
import { texts } from '@photo/contract';
import { LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ImageGrid } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { isNotFound } from '@/lib/api-client';
import { useDetailLinkState } from '@/hooks/use-detail-link-state';
import { toGridItems } from '@/lib/images';
import { useSharedWithUser } from '../api/get-shared-with-user';

/** Spec §2: the images I shared with one person. */
export function SharedPhotosScreen() {
  const { userName = '' } = useParams();
  const shared = useSharedWithUser(userName);
  const images = shared.data?.images;
  const ids = useMemo(() => (images ?? []).map((image) => image._id), [images]);
  const linkState = useDetailLinkState(ids);

  if (shared.isPending) return <Loading />;

  // A 404 means nothing is shared with this person (or the call is not there yet): show the empty list.
  if (shared.isError && !isNotFound(shared.error)) {
    return (
      <Page>
        <EmptyState
          as="h1"
          title={texts.SHARED_WITH_USER_FAILED}
          action={<LinkButton to={paths.usersISharedWith.getHref()}>Back to Shared Folders</LinkButton>}
        />
      </Page>
    );
  }

  const list = images ?? [];
  return (
    <Page>
      <PageHeading>{userName}</PageHeading>
      <p className="mb-4 text-sm text-slate-600">Images: {shared.data?.count ?? list.length}</p>
      {list.length === 0 ? (
        <EmptyState
          title={texts.NO_IMAGES_FOR_USER}
          action={<LinkButton to={paths.usersISharedWith.getHref()}>Back to Shared Folders</LinkButton>}
        />
      ) : (
        <ImageGrid label={`Images shared with ${userName}`} items={toGridItems(list)} linkState={linkState} lazy="near" />
      )}
    </Page>
  );
}
