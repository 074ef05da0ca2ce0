import { useEffect } from 'react';
import { EmptyState } from '@/components/ui/empty-state';
import { Page } from '@/components/ui/page';
import { Loading } from '@/components/ui/spinner';
import { Button } from '@/components/ui/button';
import { useProfile } from '../api/get-profile';
import { ProfileHeader } from './profile-header';
import { ProfileTabs } from './profile-tabs';

export function ProfileScreen() {
  const profile = useProfile();

  useEffect(() => {
    // Spec §8: profile failures are only logged; the screen still offers a way forward.
    if (profile.error) console.error('Error fetching profile:', profile.error);
  }, [profile.error]);

  if (profile.isPending) return <Loading />;
  if (profile.isError) {
    return (
      <Page>
        <EmptyState
          as="h1"
          title="Profile unavailable"
          text="Your profile could not be loaded."
          action={<Button onClick={() => void profile.refetch()}>Try again</Button>}
        />
      </Page>
    );
  }

  return (
    <Page>
      <ProfileHeader profile={profile.data} />
      <ProfileTabs uploadedImages={profile.data.userUploadedImages} />
    </Page>
  );
}
