import { memo } from 'react';
import { Link } from 'react-router';
import type { Image } from '@photo/contract';
import { SelectBox } from '@/components/ui/select-box';
import { Thumbnail } from '@/components/ui/thumbnail';
import { paths } from '@/config/paths';

type TimelineTileProps = {
  image: Image | undefined;
  width: number;
  height: number;
  /** 1-based place in the whole timeline, and the timeline's size. */
  position: number;
  total: number;
  selected: boolean;
  onToggle: (id: string) => void;
  linkState: unknown;
};

/**
 * One square of the timeline: the photo (its ThumbHash until the thumbnail arrives) linking to its
 * detail, with the selection checkbox; a grey box while its page is on the way.
 */
export const TimelineTile = memo(function TimelineTile({ image, width, height, position, total, selected, onToggle, linkState }: TimelineTileProps) {
  if (!image) return <div aria-hidden="true" className="shrink-0 rounded-md bg-slate-200" style={{ width, height }} />;
  return (
    <div
      role="listitem"
      aria-posinset={position}
      aria-setsize={total}
      className="relative shrink-0 overflow-hidden rounded-md bg-white"
      style={{ width, height }}
    >
      <Link
        to={paths.image.getHref(image._id)}
        state={linkState}
        className="block size-full focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600"
      >
        <Thumbnail
          src={image.thumbnailURL ?? image.trimmedURL}
          alt={image.imageName}
          placeholder={image.placeholder}
          width={image.width}
          height={image.height}
          className="size-full"
        />
      </Link>
      {/* Above the floating month label (current-month.tsx), which must never hide a checkbox. */}
      <SelectBox name={image.imageName} checked={selected} onChange={() => onToggle(image._id)} className="z-20" />
    </div>
  );
});
