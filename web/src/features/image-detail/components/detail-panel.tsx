import type { Image } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { DownloadButton } from '@/components/downloads';
import { mayShareImage } from '@/lib/auth';
import { DetailTags } from './detail-tags';
import { InfoToggle } from './info-toggle';
import { InPhotoButton } from './in-photo-button';
import { LikeButton } from './like-button';

type DetailPanelProps = { image: Image; onShare: () => void };

/** Spec §2 Image detail: like, "I'm in this photo!", share, tags and the info panel, beside (or under) the image. */
export function DetailPanel({ image, onShare }: DetailPanelProps) {
  return (
    <aside aria-label="Image actions" className="flex flex-col gap-5 bg-white p-5 text-slate-900 lg:w-80 lg:shrink-0 lg:overflow-y-auto">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <LikeButton key={image._id} imageId={image._id} initial={{ liked: image.liked, likes: image.likes }} />
        {mayShareImage(image) && (
          <Button variant="secondary" onClick={onShare}>
            Share
          </Button>
        )}
      </div>
      <InPhotoButton imageId={image._id} />
      <div className="flex flex-wrap gap-2">
        <DownloadButton kind="original" imageId={image._id} />
      </div>
      <DetailTags key={image._id} image={image} />
      <InfoToggle imageId={image._id} />
    </aside>
  );
}
