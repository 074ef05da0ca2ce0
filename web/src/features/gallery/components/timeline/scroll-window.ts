/**
 * The timeline of a large library is far taller than any element a browser will lay out (Chrome
 * stops near 33.5 million pixels; a million photos in rows of five is ~40 million). So the scroll
 * container never holds the whole timeline: it holds a window of at most MAX_WINDOW_PX of it,
 * starting at the virtual position `base`. What the reader sees at scrollTop is virtual position
 * `base + scrollTop`. When scrolling nears either edge of the window, the window is re-anchored
 * around the reader (a new base, and scrollTop moved by the same amount before the next paint, so
 * nothing on screen moves); a jump (the scrubber, Home, End) places the window directly.
 */

export const MAX_WINDOW_PX = 4_000_000;

export type WindowPlacement = { base: number; scrollTop: number };

/** Height of the scroll container's content for a timeline `total` pixels tall. */
export function windowHeight(total: number, maxWindow = MAX_WINDOW_PX): number {
  return Math.max(0, Math.min(total, maxWindow));
}

/** The highest virtual position the viewport's top can reach. */
export function maxTop(total: number, viewport: number): number {
  return Math.max(0, total - viewport);
}

/** A window with the viewport's top at virtual position `target` (clamped), centred where it can be. */
export function placeWindow(target: number, total: number, viewport: number, maxWindow = MAX_WINDOW_PX): WindowPlacement {
  const top = Math.round(Math.min(Math.max(0, target), maxTop(total, viewport)));
  const height = windowHeight(total, maxWindow);
  const base = Math.round(Math.min(Math.max(0, top + viewport / 2 - height / 2), Math.max(0, total - height)));
  return { base, scrollTop: top - base };
}

/**
 * The new placement when the viewport has come within a quarter window of an edge that is not the
 * timeline's own end, or null when the window can stay.
 */
export function reanchor(base: number, scrollTop: number, total: number, viewport: number, maxWindow = MAX_WINDOW_PX): WindowPlacement | null {
  const height = windowHeight(total, maxWindow);
  const edge = height / 4;
  const nearStart = scrollTop < edge && base > 0;
  const nearEnd = scrollTop + viewport > height - edge && base + height < total;
  return nearStart || nearEnd ? placeWindow(base + scrollTop, total, viewport, maxWindow) : null;
}
