import type { Image } from '@photo/contract';
import { aspectRatioOf, Thumbnail } from '@/components/ui/thumbnail';
import { useZoomPan } from './use-zoom-pan';
import { ZoomControls } from './zoom-controls';

/**
 * The display picture over its placeholder, fitted into the stage, with zoom and pointer panning.
 * Mount one per image (key it by id): a new image starts at 1× and centred (spec §4).
 */
export function ZoomStage({ image, showName }: { image: Image; showName: boolean }) {
  const { zoom, pan, dragging, canPan, zoomIn, zoomOut, reset, panHandlers } = useZoomPan();
  const ratio = aspectRatioOf(image.width, image.height);

  return (
    <div className="relative flex min-h-[50vh] flex-1 flex-col lg:min-h-0">
      <div
        data-testid="zoom-stage"
        // The stage is a size container: the picture fits it by its aspect ratio (cqw/cqh below).
        style={{ containerType: 'size', touchAction: canPan ? 'none' : 'auto' }}
        className={`relative min-h-0 flex-1 overflow-hidden select-none ${canPan ? (dragging ? 'cursor-grabbing' : 'cursor-grab') : ''}`}
        {...panHandlers}
      >
        <div className="absolute inset-0 flex items-center justify-center p-2">
          <div
            data-testid="zoom-frame"
            style={{
              width: `min(100cqw - 1rem, (100cqh - 1rem) * ${ratio})`,
              transform: `translate(${pan.x}px, ${pan.y}px) scale(${zoom})`,
              transition: dragging ? 'none' : 'transform 150ms ease-out',
            }}
            onDragStart={(event) => event.preventDefault()}
          >
            <Thumbnail
              src={image.trimmedURL ?? image.thumbnailURL}
              previewSrc={image.thumbnailURL}
              alt={image.imageName}
              placeholder={image.placeholder}
              width={image.width}
              height={image.height}
              lazy="eager"
              className="w-full rounded"
            />
          </div>
        </div>
        {/* Spec §2/§6: the name is overlaid only for an admin. */}
        {showName ? (
          <p className="pointer-events-none absolute top-3 left-3 max-w-[70%] truncate rounded bg-black/60 px-2 py-1 text-sm text-white">
            {image.imageName}
          </p>
        ) : null}
      </div>
      <div className="flex justify-center py-3">
        <ZoomControls zoom={zoom} onZoomIn={zoomIn} onZoomOut={zoomOut} onReset={reset} />
      </div>
    </div>
  );
}
