import { useCallback } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Page } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { isAdmin } from '@/lib/auth';
import type { ImageDetailState } from '@/lib/images';
import { useImage } from '../api/get-image';
import { ImageLoadState } from './image-load-state';
import { LikeButton } from './like-button';
import { TagList } from './tag-list';
import { useDetailKeys } from './use-detail-keys';
import { useGoBack } from './use-go-back';

function readDetailState(state: unknown): ImageDetailState | null {
  if (typeof state !== 'object' || state === null || !('ids' in state)) return null;
  const { ids } = state as { ids: unknown };
  return Array.isArray(ids) && ids.every((value) => typeof value === 'string') ? (state as ImageDetailState) : null;
}

/** Spec §2 Image detail: the image with its tags and likes, stepping through the list it came from. */
export function ImageDetailScreen() {
  const { id = '' } = useParams();
  const image = useImage(id);
  const location = useLocation();
  const navigate = useNavigate();
  const goBack = useGoBack();
  const context = readDetailState(location.state);
  const ids = context?.ids ?? [];
  const position = ids.indexOf(id);
  const canStep = position >= 0 && ids.length > 1;

  const step = useCallback(
    (delta: number) => {
      // Spec §4: previous/next wrap around the full list.
      const next = ids[(position + delta + ids.length) % ids.length];
      if (next) void navigate(paths.image.getHref(next), { state: context, replace: true });
    },
    [ids, position, navigate, context],
  );
  const onNext = useCallback(() => step(1), [step]);
  const onPrevious = useCallback(() => step(-1), [step]);
  useDetailKeys({ onNext: canStep ? onNext : undefined, onPrevious: canStep ? onPrevious : undefined, onEscape: goBack });

  if (!image.isSuccess) return <ImageLoadState pending={image.isPending} error={image.error} />;
  const { data } = image;

  return (
    <Page>
      <figure className="relative overflow-hidden rounded-2xl bg-slate-900">
        <img src={data.trimmedURL ?? data.thumbnailURL ?? ''} alt={data.imageName} className="mx-auto max-h-[75vh] w-auto object-contain" />
        {/* Spec §2: the name is overlaid only for an admin. */}
        {isAdmin() ? (
          <figcaption className="absolute bottom-2 left-2 rounded bg-black/60 px-2 py-1 text-sm text-white">{data.imageName}</figcaption>
        ) : null}
      </figure>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex gap-2">
          <Button variant="secondary" onClick={goBack}>
            Go Back
          </Button>
          {canStep ? (
            <>
              <Button variant="secondary" onClick={onPrevious}>
                Previous
              </Button>
              <Button variant="secondary" onClick={onNext}>
                Next
              </Button>
            </>
          ) : null}
        </div>
        <LikeButton key={data._id} imageId={data._id} initial={{ liked: data.liked, likes: data.likes }} />
      </div>
      <section className="mt-6">
        <h2 className="mb-2 text-lg font-semibold">Tags</h2>
        <TagList tags={data.tags} />
      </section>
    </Page>
  );
}
