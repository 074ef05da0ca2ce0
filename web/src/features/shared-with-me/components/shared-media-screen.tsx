import { texts } from '@photo/contract';
import { EmptyState } from '@/components/ui/empty-state';
import { FolderCard, FolderList } from '@/components/ui/folder-card';
import { Page, PageHeading } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { UnconfirmedAddressNote } from '@/components/ui/unconfirmed-address-note';
import { paths } from '@/config/paths';
import { useSharedWithMe } from '../api/get-shared-with-me';
import { LoadError } from './load-error';

/** Spec §2 "Shared with me": a folder per person who shared with me. */
export function SharedMediaScreen() {
  const shared = useSharedWithMe();

  if (shared.isPending) return <Loading />;
  // Read again every 30 s; a failed refresh keeps the folders on screen.
  const answer = shared.data;
  if (answer === undefined) {
    return (
      <Page>
        <LoadError onRetry={() => void shared.refetch()} />
      </Page>
    );
  }

  const sharers = answer.data.sharedBy;
  if (!answer.hasAccess || sharers.length === 0) {
    return (
      <Page>
        <EmptyState as="h1" title={texts.NO_ACCESS_TITLE} text={texts.NO_ACCESS_TEXT} note={<UnconfirmedAddressNote />} />
      </Page>
    );
  }

  return (
    <Page>
      <PageHeading>Shared with me</PageHeading>
      <FolderList label="People who shared with me">
        {sharers.map((sharer) => (
          <li key={sharer.sharedByUserName}>
            <FolderCard
              href={paths.sharedWithMeUser.getHref(sharer.sharedByUserName)}
              files={sharer.totalImagesShared}
              caption="Shared By"
              person={sharer.sharedByUserName}
            />
          </li>
        ))}
      </FolderList>
    </Page>
  );
}
