import type sharpModule from 'sharp';
import { loadOnFirstUse } from '../shared/load-on-first-use.js';

/** sharp's default export: the function that opens an image. */
export type SharpFunction = typeof sharpModule;

let loaded: Promise<SharpFunction> | undefined;

/**
 * sharp, loaded when the first picture is read rather than at start: libvips and its codecs are
 * about 27 MB resident, which a server that has been asked for nothing should not hold (issue 14:
 * idle ≤ 100 MB). Every original is read once, so libvips' operation cache would only hold memory
 * we never reuse: it is switched off as sharp loads.
 */
export function loadSharp(): Promise<SharpFunction> {
  if (!loaded) {
    const sharp = loadOnFirstUse<SharpFunction>('sharp');
    sharp.cache(false);
    loaded = Promise.resolve(sharp);
  }
  return loaded;
}
