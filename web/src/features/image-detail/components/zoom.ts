/** Spec §4/§9: zoom from 0.5× to 2× in steps of 0.1, reset to 1×; pan only above 1×, clamped. */
export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 2;
export const ZOOM_STEP = 0.1;
export const ZOOM_RESET = 1;
/** Pan limit per unit of zoom above 1, in pixels on each axis: 200 × (zoom − 1). */
export const PAN_PER_ZOOM_PX = 200;

export type Pan = { x: number; y: number };
export const NO_PAN: Pan = { x: 0, y: 0 };

/** Rounded to one decimal, so ten steps of 0.1 land exactly on the next whole number. */
export function clampZoom(zoom: number): number {
  return Math.round(Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom)) * 10) / 10;
}

export function panLimit(zoom: number): number {
  // Rounded: zoom is on tenths, so the limit is whole pixels (not 60.00000000000001).
  return zoom > 1 ? Math.round(PAN_PER_ZOOM_PX * (zoom - 1)) : 0;
}

export function clampPan(pan: Pan, zoom: number): Pan {
  const limit = panLimit(zoom);
  const clamp = (value: number) => Math.min(limit, Math.max(-limit, value));
  // `|| 0` turns -0 into 0, which reads better in a transform.
  return { x: clamp(pan.x) || 0, y: clamp(pan.y) || 0 };
}
