import { useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { Image } from '@photo/contract';
import { Button } from '@/components/ui/button';
import { Page } from '@/components/ui/page';
import { aspectRatioOf, Thumbnail } from '@/components/ui/thumbnail';
import { shownData } from '@/lib/live-queries';
import { imageQueryKey, useImage } from '../api/get-image';
import { useLikeImage } from '../api/image-actions';
import { AddTagForm } from './add-tag-form';
import { InfoToggle } from './info-toggle';
import { InPhotoButton } from './in-photo-button';
import { ImageLoadState } from './image-load-state';
import { TagList } from './tag-list';
import { useDetailKeys } from './use-detail-keys';
import { useGoBack } from './use-go-back';
import { LikeHeart } from './like-heart';

/** Spec §2 shows a fixed date line here; the real date replaces it when the photo says when it was taken. */
export const DATE_PLACEHOLDER = 'Date not recorded';

function dateLine(takenAt: string | null): string {
  const date = takenAt ? new Date(takenAt) : null;
  if (!date || Number.isNaN(date.getTime())) return DATE_PLACEHOLDER;
  return `Taken ${date.toLocaleDateString(undefined, { dateStyle: 'long' })}`;
}

/**
 * Spec §2 "Shared image detail", the older detail view that takes only an {id}: large image, name,
 * date, I'm in this photo, tags (custom tags included) and the likes heart.
 */
export function SharedImageDetailScreen() {
  const { id = '' } = useParams();
  const image = useImage(id);
  const goBack = useGoBack();
  useDetailKeys({ onEscape: goBack });

  // Read again every 30 s: a 404 (access switched off) replaces the picture, a failed refresh does not.
  const data = shownData(image);
  if (!data) return <ImageLoadState pending={image.isPending} error={image.error} />;
  const tags = [...new Set([...data.tags, ...data.customTags])];

  return (
    <Page className="grid gap-6 lg:grid-cols-[2fr_1fr]">
      {/* As wide as the column allows, but never taller than 80% of the window. */}
      <div className="mx-auto w-full" style={{ maxWidth: `calc(80vh * ${aspectRatioOf(data.width, data.height)})` }}>
        <Thumbnail
          src={data.trimmedURL ?? data.thumbnailURL}
          previewSrc={data.thumbnailURL}
          alt={data.imageName}
          placeholder={data.placeholder}
          width={data.width}
          height={data.height}
          lazy="eager"
          className="w-full rounded-2xl"
        />
      </div>
      <div className="flex flex-col gap-4">
        <div>
          <h1 className="text-xl font-semibold break-words text-slate-900">{data.imageName}</h1>
          <p className="text-sm text-slate-500">{dateLine(data.takenAt)}</p>
        </div>
        <InPhotoButton imageId={data._id} />
        <section className="flex flex-col gap-3">
          <h2 className="text-lg font-semibold">Tags</h2>
          <AddTagForm imageId={data._id} />
          <TagList tags={tags} />
        </section>
        <SharedLikeToggle image={data} />
        <InfoToggle imageId={data._id} />
        <div>
          <Button variant="ghost" onClick={goBack}>
            Go Back
          </Button>
        </div>
      </div>
    </Page>
  );
}

/**
 * Spec §4 like on the shared view: an optimistic toggle on the image record itself, reverted on
 * failure; the server's `userAccessData` (the whole record) replaces it, else its like fields do.
 */
function SharedLikeToggle({ image }: { image: Image }) {
  const queryClient = useQueryClient();
  const like = useLikeImage(image._id);
  const key = imageQueryKey(image._id);
  const patch = (change: (record: Image) => Image) =>
    queryClient.setQueryData<Image>(key, (record) => (record ? change(record) : record));

  const toggle = () => {
    const before = { liked: image.liked, likes: image.likes };
    const liked = !before.liked;
    patch((record) => ({ ...record, liked, likes: Math.max(0, before.likes + (liked ? 1 : -1)) }));
    like.mutate(liked, {
      onSuccess: (answer) => {
        if (answer.userAccessData) queryClient.setQueryData<Image>(key, answer.userAccessData);
        else patch((record) => ({ ...record, liked: answer.liked, likes: answer.likes }));
      },
      onError: (error) => {
        console.error('Error updating like:', error); // spec §8: only logged
        patch((record) => ({ ...record, ...before }));
      },
    });
  };

  return <LikeHeart liked={image.liked} likes={image.likes} onToggle={toggle} />;
}
