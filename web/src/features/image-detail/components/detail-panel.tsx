import type { Image } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { AddTagForm } from './add-tag-form';
import { InPhotoButton } from './in-photo-button';
import { LikeButton } from './like-button';
import { TagList } from './tag-list';

type DetailPanelProps = { image: Image; onShare: () => void };

/** Spec §2 Image detail: like, "I'm in this photo!", share and tags, beside (or under) the image. */
export function DetailPanel({ image, onShare }: DetailPanelProps) {

  return (
    <aside aria-label="Image actions" className="flex flex-col gap-5 bg-white p-5 text-slate-900 lg:w-80 lg:shrink-0 lg:overflow-y-auto">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <LikeButton key={image._id} imageId={image._id} initial={{ liked: image.liked, likes: image.likes }} />
        <Button variant="secondary" onClick={onShare}>
          Share
        </Button>
      </div>
      <InPhotoButton imageId={image._id} />
      <section className="flex flex-col gap-3">
        <h2 className="text-lg font-semibold">Tags</h2>
        <TagList tags={image.tags} />
        <AddTagForm key={image._id} imageId={image._id} />
      </section>
    </aside>
  );
}
