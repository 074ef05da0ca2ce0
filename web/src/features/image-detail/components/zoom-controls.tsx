import { ZOOM_MAX, ZOOM_MIN, ZOOM_RESET } from './zoom';

type ZoomControlsProps = { zoom: number; onZoomIn: () => void; onZoomOut: () => void; onReset: () => void };

const buttonClasses =
  'flex size-9 items-center justify-center rounded-full text-lg text-white hover:bg-white/15 disabled:opacity-40 disabled:hover:bg-transparent focus-visible:outline-2 focus-visible:outline-indigo-400';

/** −, the zoom level, + and reset to 1× (spec §4). */
export function ZoomControls({ zoom, onZoomIn, onZoomOut, onReset }: ZoomControlsProps) {
  return (
    <div role="group" aria-label="Zoom" className="flex items-center gap-1 rounded-full bg-black/60 px-2 py-1 backdrop-blur">
      <button type="button" aria-label="Zoom out" onClick={onZoomOut} disabled={zoom <= ZOOM_MIN} className={buttonClasses}>
        −
      </button>
      <output aria-live="polite" className="w-14 text-center text-sm tabular-nums">
        {Math.round(zoom * 100)}%
      </output>
      <button type="button" aria-label="Zoom in" onClick={onZoomIn} disabled={zoom >= ZOOM_MAX} className={buttonClasses}>
        +
      </button>
      <button
        type="button"
        onClick={onReset}
        disabled={zoom === ZOOM_RESET}
        className={`${buttonClasses} w-auto px-3 text-sm`}
      >
        Reset zoom
      </button>
    </div>
  );
}
