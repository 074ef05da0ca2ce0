import { useMemo } from 'react';
import { useParams } from 'react-router';
import { texts } from '@photo/contract';
import { LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ImageGrid } from '@/components/ui/image-grid';
import { Page, PageHeading } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { useDetailLinkState } from '@/hooks/use-detail-link-state';
import { isNotFound } from '@/lib/api-client';
import { toGridItems } from '@/lib/images';
import { useSharedWithUser } from '../api/get-shared-with-user';

/** Spec §2 names this address for the way back; the route table sends it on to the folders. */
const SHARED_FOLDERS_HREF = '/my-shared-photos';

/** Spec §2: the images I shared with one person (their e-mail address is the folder's name). */
export function SharedPhotosScreen() {
  const { userName = '' } = useParams();
  const shared = useSharedWithUser(userName);
  // Spec §8: on failure the list is emptied. A 404 is a person I shared nothing with: an empty list, no error.
  const failed = shared.isError && !isNotFound(shared.error);
  const images = useMemo(() => (shared.isSuccess ? shared.data.images : []), [shared.isSuccess, shared.data]);
  const ids = useMemo(() => images.map((image) => image._id), [images]);
  const linkState = useDetailLinkState(ids);

  if (shared.isPending) return <Loading />;

  const backToFolders = <LinkButton to={SHARED_FOLDERS_HREF}>Back to Shared Folders</LinkButton>;
  return (
    <Page>
      <PageHeading>{userName}</PageHeading>
      <p className="mb-4 text-sm text-slate-600">Images: {shared.isSuccess ? shared.data.count : 0}</p>
      {failed ? <EmptyState title={texts.SHARED_WITH_USER_FAILED} action={backToFolders} /> : null}
      {!failed && images.length === 0 ? <EmptyState title={texts.NO_IMAGES_FOR_USER} action={backToFolders} /> : null}
      {images.length > 0 ? (
        <ImageGrid label={`Images shared with ${userName}`} items={toGridItems(images)} linkState={linkState} lazy="near" />
      ) : null}
    </Page>
  );
}
