import { useMemo } from 'react';
import { Link } from 'react-router';
import type { Image } from '@photo/contract';
import { ImageGrid } from '@/components/ui/image-grid';
import { DownloadButton } from '@/components/downloads';
import { useDetailLinkState } from '@/hooks/use-detail-link-state';
import { toGridItems } from '@/lib/images';

/**
 * Spec §2 Profile tiles: lazy blur-up thumbnails (spec §9: 400px, 100 ms), hashtags or No tags,
 * and both a click on the picture and the open icon open the detail with this tab's list.
 */
type ProfileImageGridProps = { label: string; images: Image[]; tab: 'favorites' | 'tagged' | 'uploaded' };

export function ProfileImageGrid({ label, images, tab }: ProfileImageGridProps) {
  const items = useMemo(() => toGridItems(images), [images]);
  const ids = useMemo(() => items.map((item) => item.id), [items]);
  // The tab is named even when it is the default one, so the detail can say Favorites, not Profile.
  const linkState = useDetailLinkState(ids, { origin: `/profile?tab=${tab}` });

  return (
    <>
      <div className="mb-3 flex flex-wrap gap-2">
        <DownloadButton kind="zip" imageIds={ids} />
      </div>
      <ImageGrid
        label={label}
        items={items}
        linkState={linkState}
        lazy="near"
        showTags
        renderExtra={(item) => (
          <Link
            to={item.href!}
            state={linkState}
            title="Open image details"
            aria-label={`Open image details: ${item.name}`}
            className="absolute top-2 right-2 rounded-md bg-white/90 p-1.5 text-slate-700 shadow hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
          >
            <OpenIcon />
          </Link>
        )}
      />
    </>
  );
}

function OpenIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
      <path d="M14 4h6v6M20 4l-9 9M19 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1h5" />
    </svg>
  );
}
