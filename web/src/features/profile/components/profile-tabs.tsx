import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { images as imageSchemas, type Image } from '@photo/contract';
import { EmptyState } from '@/components/ui/empty-state';
import { Loading } from '@/components/ui/spinner';
import { Tabs, type Tab } from '@/components/ui/tabs';
import { useLikedImages, useTaggedImages } from '../api/get-profile-images';
import { ProfileImageGrid } from './profile-image-grid';
import { TaggedImages } from './tagged-images';

type TabKey = 'favorites' | 'tagged' | 'uploaded';
const TAB_KEYS: readonly TabKey[] = ['favorites', 'tagged', 'uploaded'];

/** The profile's uploaded list is loosely typed in the contract; keep only real image records. */
function readUploaded(list: unknown[]): Image[] {
  return list.flatMap((item) => {
    const parsed = imageSchemas.image.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The active tab lives in the address (`?tab=tagged`): the image detail reads it from its origin to
 * label its breadcrumb (Favorites, My Tagged Images, Uploaded Images), and going back reopens it.
 */
function useActiveTab(): [TabKey, (tab: TabKey) => void] {
  const [params, setParams] = useSearchParams();
  const current = params.get('tab');
  const active = TAB_KEYS.find((key) => key === current) ?? 'favorites';
  const setActive = (tab: TabKey) => setParams({ tab }, { replace: true, preventScrollReset: true });
  return [active, setActive];
}

export function ProfileTabs({ uploadedImages }: { uploadedImages: unknown[] }) {
  const [requested, setActive] = useActiveTab();
  // Switching tabs remounts the tagged list, which clears its tag filter (spec §2 Profile).
  const liked = useLikedImages();
  const tagged = useTaggedImages();
  const uploaded = useMemo(() => readUploaded(uploadedImages), [uploadedImages]);
  const likedImages = liked.data ?? [];
  const taggedEntries = tagged.data ?? [];

  const tabs: Tab<TabKey>[] = [
    { key: 'favorites', label: `My Favorite Images (${likedImages.length})` },
    { key: 'tagged', label: `My Tagged Images (${taggedEntries.length})` },
  ];
  // Spec §2: the uploaded tab is shown only when uploaded images exist.
  if (uploaded.length > 0) tabs.push({ key: 'uploaded', label: `Uploaded Images (${uploaded.length})` });
  const active = tabs.some((tab) => tab.key === requested) ? requested : 'favorites';

  return (
    <Tabs label="Profile images" tabs={tabs} active={active} onChange={setActive}>
      {active === 'favorites' ? (
        liked.isPending ? (
          <Loading />
        ) : likedImages.length === 0 ? (
          <EmptyState title="No favorite images yet" text="Images you like show up here." />
        ) : (
          <ProfileImageGrid label="My Favorite Images" images={likedImages} tab="favorites" />
        )
      ) : null}
      {active === 'tagged' ? (
        tagged.isPending ? <Loading /> : <TaggedImages entries={taggedEntries} />
      ) : null}
      {active === 'uploaded' ? <ProfileImageGrid label="Uploaded Images" images={uploaded} tab="uploaded" /> : null}
    </Tabs>
  );
}
