import { useCallback, useMemo, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ShareDialog } from '@/components/ui/share-dialog';
import { StepButton } from '@/components/ui/step-button';
import { paths } from '@/config/paths';
import { isAdmin } from '@/lib/auth';
import { shownData } from '@/lib/live-queries';
import { usePrefetchImages, useImage } from '../api/get-image';
import { useStepper } from '../api/get-step-list';
import { DetailBreadcrumb } from './detail-breadcrumb';
import { DetailLoadState } from './detail-load-state';
import { DetailModal } from './detail-modal';
import { DetailPanel } from './detail-panel';
import { readDetailState, type DetailEntryState } from './detail-state';
import { useDetailKeys } from './use-detail-keys';
import { useGoBack } from './use-go-back';
import { ZoomStage } from './zoom-stage';

/** Spec §2 Image detail: a modal with zoom, previous/next over the full list, tags, like and share. */
export function ImageDetailScreen() {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const context = useMemo(() => readDetailState(location.state), [location.state]);
  const image = useImage(id);
  // Read again every 30 s: a 404 (access switched off) closes the picture, a failed refresh does not.
  const shown = shownData(image);
  const goBack = useGoBack(context.origin, context.firstEntry);
  const [sharing, setSharing] = useState(false);
  const admin = isAdmin();

  const firstEntry = context.firstEntry || location.key === 'default';
  const show = useCallback(
    (target: string) => {
      // Stepping replaces the entry, so Back (and Escape) return to the screen the image came from.
      const state: DetailEntryState = { ...context, firstEntry: firstEntry || undefined };
      void navigate(paths.image.getHref(target), { state, replace: true });
    },
    [context, firstEntry, navigate],
  );
  const { previousId, nextId, step } = useStepper(id, context.ids, show);
  usePrefetchImages([nextId, previousId]);
  const canStep = nextId !== undefined && previousId !== undefined;
  const onNext = useCallback(() => step('next'), [step]);
  const onPrevious = useCallback(() => step('previous'), [step]);
  // Keys always go to the stepper: it knows where the last step landed, even before this screen does.
  useDetailKeys({ onNext, onPrevious, onEscape: goBack, enabled: !sharing });

  const current = shown && admin ? shown.imageName : 'Image';
  return (
    <DetailModal bar={<DetailBreadcrumb origin={context.origin} current={current} />} onClose={goBack}>
      {shown ? (
        <>
          {/* Under lg the column scrolls: the stage keeps ZoomStage's 50vh and the panel follows it,
              rather than the stage shrinking under the panel and drawing over it. Set here, not left
              to min-height: auto, whose measuring pass sizes the picture (cqh) against no height. */}
          <div className="relative flex min-h-[50vh] flex-1 flex-col lg:min-h-0">
            <ZoomStage key={shown._id} image={shown} showName={admin} />
            {canStep ? (
              <>
                <StepButton direction="previous" noun="image" onClick={onPrevious} />
                <StepButton direction="next" noun="image" onClick={onNext} />
              </>
            ) : null}
          </div>
          <DetailPanel image={shown} onShare={() => setSharing(true)} />
          {sharing ? <ShareDialog title="Share image" imageIds={[shown._id]} onClose={() => setSharing(false)} /> : null}
        </>
      ) : (
        <DetailLoadState pending={image.isPending} error={image.error} onBack={goBack} />
      )}
    </DetailModal>
  );
}
