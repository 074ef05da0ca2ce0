import { describe, expect, it } from 'vitest';
import { MAX_WINDOW_PX, placeWindow, reanchor, windowHeight } from './scroll-window';

const TOTAL = 41_000_000; // a million photos in rows of five
const VIEWPORT = 900;

describe('the scroll window', () => {
  it('is never taller than MAX_WINDOW_PX, well under what Chrome lays out (~33.5 M px)', () => {
    expect(windowHeight(TOTAL)).toBe(MAX_WINDOW_PX);
    expect(MAX_WINDOW_PX).toBeLessThan(33_554_432 / 8);
    expect(windowHeight(12_000)).toBe(12_000);
  });

  it('is placed around a jump target, clamped at both ends of the timeline', () => {
    const middle = placeWindow(20_000_000, TOTAL, VIEWPORT);
    expect(middle.base + middle.scrollTop).toBe(20_000_000);
    expect(middle.scrollTop).toBeCloseTo(MAX_WINDOW_PX / 2 - VIEWPORT / 2, -1);
    expect(placeWindow(-10, TOTAL, VIEWPORT)).toEqual({ base: 0, scrollTop: 0 });
    const end = placeWindow(TOTAL * 2, TOTAL, VIEWPORT);
    expect(end).toEqual({ base: TOTAL - MAX_WINDOW_PX, scrollTop: MAX_WINDOW_PX - VIEWPORT });
    // A small library fits whole: no window to move.
    expect(placeWindow(5_000, 12_000, VIEWPORT)).toEqual({ base: 0, scrollTop: 5_000 });
  });

  it('re-anchors near an inner edge without moving what is on screen, and not at the real ends', () => {
    const placed = placeWindow(20_000_000, TOTAL, VIEWPORT);
    expect(reanchor(placed.base, placed.scrollTop, TOTAL, VIEWPORT)).toBeNull();
    const nearEnd = MAX_WINDOW_PX - MAX_WINDOW_PX / 4;
    const moved = reanchor(placed.base, nearEnd, TOTAL, VIEWPORT)!;
    expect(moved.base + moved.scrollTop).toBe(placed.base + nearEnd);
    expect(moved.base).toBeGreaterThan(placed.base);
    expect(reanchor(0, 10, TOTAL, VIEWPORT)).toBeNull();
    expect(reanchor(TOTAL - MAX_WINDOW_PX, MAX_WINDOW_PX - VIEWPORT, TOTAL, VIEWPORT)).toBeNull();
  });

  it('lets a reader scroll from the top to the bottom of a million photos and back, one screen at a time', () => {
    let { base, scrollTop } = placeWindow(0, TOTAL, VIEWPORT);
    let anchors = 0;
    const scroll = (by: number) => {
      const before = base + scrollTop;
      scrollTop = Math.min(Math.max(0, scrollTop + by), windowHeight(TOTAL) - VIEWPORT);
      const moved = reanchor(base, scrollTop, TOTAL, VIEWPORT);
      if (moved) {
        expect(moved.base + moved.scrollTop).toBe(base + scrollTop);
        ({ base, scrollTop } = moved);
        anchors += 1;
      }
      return base + scrollTop - before;
    };
    let travelled = 0;
    while (base + scrollTop < TOTAL - VIEWPORT) travelled += scroll(VIEWPORT);
    expect(travelled).toBe(TOTAL - VIEWPORT);
    // About one re-anchoring per million pixels (a thousand screens) of scrolling.
    expect(anchors).toBeGreaterThan(20);
    expect(anchors).toBeLessThan(50);
    while (base + scrollTop > 0) travelled -= scroll(-VIEWPORT);
    expect(base + scrollTop).toBe(0);
  });
});
