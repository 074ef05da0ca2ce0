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
 *
 * One libvips thread per pipeline: sharp's own default on glibc, which it gives up when it finds
 * MALLOC_ARENA_MAX set — and `npm start` sets it (scripts/server-runtime.mjs). Two photos decode at
 * once (task-pool.ts) and each pipeline is mostly serial (the JPEG decode, the WebP encode), so a
 * second thread each bought nothing: in three alternated pairs, 7.23–7.62 images/s with two and
 * 7.38–8.13 with one (noisy), and the decoder's peak on the 1 GB upload 162 MB instead of 167
 * (decision 0021). A photo decoded alone gets two (derive.ts, decision 0040). `VIPS_CONCURRENCY` in
 * the environment still decides, as in libvips.
 */
export function loadSharp(): Promise<SharpFunction> {
  if (!loaded) {
    const sharp = loadOnFirstUse<SharpFunction>('sharp');
    sharp.cache(false);
    if (!process.env.VIPS_CONCURRENCY) sharp.concurrency(1);
    loaded = Promise.resolve(sharp);
  }
  return loaded;
}
