import { useState } from 'react';
import { images as imageSchemas, type Image } from '@photo/contract';
import { EmptyState } from '@/components/ui/empty-state';
import { ImageGrid } from '@/components/ui/image-grid';
import { Loading } from '@/components/ui/spinner';
import { Tabs, type Tab } from '@/components/ui/tabs';
import { toGridItems } from '@/lib/images';
import { useLikedImages, useTaggedImages } from '../api/get-profile-images';
import { TaggedImages } from './tagged-images';

type TabKey = 'favorites' | 'tagged' | 'uploaded';

/** The profile's uploaded list is loosely typed in the contract; keep only real image records. */
function readUploaded(list: unknown[]): Image[] {
  return list.flatMap((item) => {
    const parsed = imageSchemas.image.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

export function ProfileTabs({ uploadedImages }: { uploadedImages: unknown[] }) {
  const [active, setActive] = useState<TabKey>('favorites');
  // Switching tabs remounts the tagged list, which clears its tag filter (spec §2 Profile).
  const liked = useLikedImages();
  const tagged = useTaggedImages();
  const uploaded = readUploaded(uploadedImages);
  const likedImages = liked.data ?? [];
  const taggedEntries = tagged.data ?? [];

  const tabs: Tab<TabKey>[] = [
    { key: 'favorites', label: `My Favorite Images (${likedImages.length})` },
    { key: 'tagged', label: `My Tagged Images (${taggedEntries.length})` },
  ];
  // Spec §2: the uploaded tab is shown only when uploaded images exist.
  if (uploaded.length > 0) tabs.push({ key: 'uploaded', label: `Uploaded Images (${uploaded.length})` });

  return (
    <Tabs label="Profile images" tabs={tabs} active={active} onChange={setActive}>
      {active === 'favorites' ? (
        liked.isPending ? (
          <Loading />
        ) : likedImages.length === 0 ? (
          <EmptyState title="No favorite images yet" text="Images you like show up here." />
        ) : (
          <ImageGrid label="My Favorite Images" items={toGridItems(likedImages, 'favorites')} showTags />
        )
      ) : null}
      {active === 'tagged' ? (
        tagged.isPending ? <Loading /> : <TaggedImages entries={taggedEntries} />
      ) : null}
      {active === 'uploaded' ? (
        <ImageGrid label="Uploaded Images" items={toGridItems(uploaded, 'uploaded')} showTags />
      ) : null}
    </Tabs>
  );
}
