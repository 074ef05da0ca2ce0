import { texts } from '@photo/contract';
import { LinkButton } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { FolderCard, FolderList } from '@/components/ui/folder-card';
import { Page, PageHeading } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useUsersISharedWith } from '../api/get-users-i-shared-with';

/** Spec §2 "Shared-by-me folders": one folder per person I shared with. */
export function UsersISharedWithScreen() {
  const shared = useUsersISharedWith();

  if (shared.isPending) return <Loading />;

  const people = shared.data?.sharedUsers ?? [];
  return (
    <Page>
      <PageHeading>Photos I Shared</PageHeading>
      {people.length === 0 ? (
        <EmptyState
          title={texts.NOTHING_SHARED_YET}
          text="Select photos in the gallery and use Selective Access to share them."
          action={<LinkButton to={paths.home.getHref()}>Go to the gallery</LinkButton>}
        />
      ) : (
        <FolderList label="People I shared with">
          {people.map((person) => (
            <li key={person.sharedWith}>
              <FolderCard
                href={paths.sharedPhotos.getHref(person.sharedWith)}
                files={person.countImages}
                caption="Shared With"
                person={person.sharedWith}
              />
            </li>
          ))}
        </FolderList>
      )}
    </Page>
  );
}
