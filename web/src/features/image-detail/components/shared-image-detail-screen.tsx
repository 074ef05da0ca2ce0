import { useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Page } from '@/components/ui/page';
import { aspectRatioOf, Thumbnail } from '@/components/ui/thumbnail';
import { useImage } from '../api/get-image';
import { AddTagForm } from './add-tag-form';
import { InPhotoButton } from './in-photo-button';
import { ImageLoadState } from './image-load-state';
import { LikeButton } from './like-button';
import { TagList } from './tag-list';
import { useDetailKeys } from './use-detail-keys';
import { useGoBack } from './use-go-back';

function formatTakenAt(takenAt: string | null): string | null {
  if (!takenAt) return null;
  const date = new Date(takenAt);
  return Number.isNaN(date.getTime()) ? null : date.toLocaleDateString(undefined, { dateStyle: 'long' });
}

/**
 * Spec §2 "Shared image detail", the older detail view that takes only an {id}: large image, name,
 * I'm in this photo, tags (custom tags included) and the likes heart.
 */
export function SharedImageDetailScreen() {
  const { id = '' } = useParams();
  const image = useImage(id);
  const goBack = useGoBack();
  useDetailKeys({ onEscape: goBack });

  if (!image.isSuccess) return <ImageLoadState pending={image.isPending} error={image.error} />;
  const { data } = image;
  const taken = formatTakenAt(data.takenAt);
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
          {taken ? <p className="text-sm text-slate-500">Taken {taken}</p> : null}
        </div>
        <InPhotoButton imageId={data._id} />
        <section className="flex flex-col gap-3">
          <h2 className="text-lg font-semibold">Tags</h2>
          <AddTagForm imageId={data._id} />
          <TagList tags={tags} />
        </section>
        <LikeButton key={data._id} imageId={data._id} initial={{ liked: data.liked, likes: data.likes }} />
        <div>
          <Button variant="ghost" onClick={goBack}>
            Go Back
          </Button>
        </div>
      </div>
    </Page>
  );
}
