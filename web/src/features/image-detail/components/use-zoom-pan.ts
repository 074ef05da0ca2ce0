import { useCallback, useRef, useState, type PointerEvent } from 'react';
import { clampPan, clampZoom, NO_PAN, ZOOM_RESET, ZOOM_STEP, type Pan } from './zoom';

type View = { zoom: number; pan: Pan };
const START: View = { zoom: ZOOM_RESET, pan: NO_PAN };

/**
 * Zoom buttons and pointer panning for one image (mount it per image, so a new image starts at 1×).
 * Zooming out pulls the pan back within the new, smaller limit.
 */
export function useZoomPan() {
  const [view, setView] = useState<View>(START);
  const [dragging, setDragging] = useState(false);
  const grab = useRef<{ pointerId: number; x: number; y: number } | null>(null);

  const zoomBy = useCallback((delta: number) => {
    setView(({ zoom, pan }) => {
      const next = clampZoom(zoom + delta);
      return { zoom: next, pan: clampPan(pan, next) };
    });
  }, []);
  const zoomIn = useCallback(() => zoomBy(ZOOM_STEP), [zoomBy]);
  const zoomOut = useCallback(() => zoomBy(-ZOOM_STEP), [zoomBy]);
  const reset = useCallback(() => setView(START), []);

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (view.zoom <= 1 || event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    // Remember where the pointer sits relative to the image, so the image follows it exactly.
    grab.current = { pointerId: event.pointerId, x: event.clientX - view.pan.x, y: event.clientY - view.pan.y };
    setDragging(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const start = grab.current;
    if (!start || start.pointerId !== event.pointerId) return;
    const pan = { x: event.clientX - start.x, y: event.clientY - start.y };
    setView(({ zoom }) => ({ zoom, pan: clampPan(pan, zoom) }));
  };
  const endDrag = (event: PointerEvent<HTMLElement>) => {
    if (grab.current?.pointerId !== event.pointerId) return;
    grab.current = null;
    setDragging(false);
  };

  return {
    zoom: view.zoom,
    pan: view.pan,
    dragging,
    canPan: view.zoom > 1,
    zoomIn,
    zoomOut,
    reset,
    panHandlers: { onPointerDown, onPointerMove, onPointerUp: endDrag, onPointerCancel: endDrag },
  };
}
