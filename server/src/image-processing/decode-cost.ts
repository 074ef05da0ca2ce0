/**
 * What decoding one image costs in memory at its peak, from its header alone, so an image whose
 * decode would not fit is refused before it is decoded (a pixel limit that knows its decoder).
 *
 * Some decoders stream: libvips reads baseline JPEG (shrunk on load), non-interlaced PNG and TIFF
 * strip by strip, so only MAX_PIXELS applies to them. The others hold whole full-resolution frames,
 * several bytes per pixel (process RSS growth for one decode, measured on Node 20 with MALLOC_ARENA_MAX=2):
 *
 * - HEIC/HEIF (libheif-js, WASM, decoders/heic.ts): the YCbCr planes, the interleaved RGB(A) frame
 *   and two copies of the file inside the WASM instance, then the frame copied out of it: 10.6 and
 *   13.9 bytes per pixel for 12 MP iPhone files, 12.4 for a 16 MP 10-bit HDR one (the instance alone:
 *   4.7–7.7; the rest is the copy out and the decoder's own code).
 * - AVIF and HEIF through sharp (libheif and libaom in libvips): 15.4 for a 20 MP AVIF.
 * - WebP: the whole RGBA frame (3.2 measured for a 10 MP photo).
 * - GIF: each frame is composed on a full RGBA canvas, and the previous one kept for disposal.
 * - Progressive JPEG: the whole image's DCT coefficients, 2 bytes per sample, before any pixel.
 * - Interlaced PNG: the whole image, then libvips' copy of it.
 */

/**
 * Peak memory one decode may take; the pool runs IMAGE_WORKERS decodes at once. Large enough for the
 * largest phone photos (48 MP HEIC), small enough that a decompression bomb cannot take gigabytes.
 */
export const DECODE_MEMORY_BUDGET = 700_000_000;

/** HEIC through our WASM decoder (measured up to 13.9 for 12 MP, where the decoder's own code weighs most). */
export const HEIC_BYTES_PER_PIXEL = 13;
/** AVIF and HEIF decoded by sharp. */
const SHARP_HEIF_BYTES_PER_PIXEL = 16;

export interface DecodeFacts {
  /** Which decoder reads it: our HEIC decoder, or sharp (libvips) with the format it reported. */
  decoder: 'heic' | 'sharp';
  /** sharp's format name ('jpeg', 'png', 'gif', 'heif', …). */
  format?: string | undefined;
  width: number;
  height: number;
  /** Progressive JPEG or interlaced PNG (sharp's `isProgressive`). */
  progressive?: boolean | undefined;
  channels?: number | undefined;
  /** 2 for 16-bit samples. */
  sampleBytes?: number | undefined;
  /** The file's size: a HEIC is copied into the decoder twice. */
  fileBytes?: number | undefined;
}

/** Bytes per pixel a decode holds at once; 0 for decoders that stream. */
export function bytesPerPixel(facts: DecodeFacts): number {
  const channels = facts.channels ?? 4;
  const sample = facts.sampleBytes ?? 1;
  if (facts.decoder === 'heic') return HEIC_BYTES_PER_PIXEL;
  switch (facts.format) {
    case 'heif':
      return SHARP_HEIF_BYTES_PER_PIXEL;
    case 'webp':
      return 4;
    case 'gif':
      return 8;
    case 'jpeg':
      return facts.progressive ? 2 * channels : 0;
    case 'png':
      return facts.progressive ? 2 * channels * sample : 0;
    default:
      return 0;
  }
}

/** Peak bytes the decode of the described image needs (0 when the decoder streams). */
export function decodeBytes(facts: DecodeFacts): number {
  const perPixel = bytesPerPixel(facts);
  if (perPixel === 0) return 0;
  const fileCopies = facts.decoder === 'heic' ? 2 * (facts.fileBytes ?? 0) : 0;
  return facts.width * facts.height * perPixel + fileCopies;
}

/**
 * What a decode that streams still holds: the display-size pixels and their encodings, with
 * libvips' buffers (measured: a 22 MP baseline JPEG, shrunk on load, peaks about 40 MB above idle).
 */
export const STREAMING_DECODE_BYTES = 40_000_000;

/** Peak bytes processing the described image takes, streaming or not: what the image pool reserves for it. */
export function processingBytes(facts: DecodeFacts): number {
  return Math.max(decodeBytes(facts), STREAMING_DECODE_BYTES);
}

/**
 * Why the described image is refused, or undefined when its decode fits the budget. The reason
 * names the limit in megapixels for that kind of image, which people understand better than bytes.
 */
export function overDecodeBudget(facts: DecodeFacts, budget = DECODE_MEMORY_BUDGET): string | undefined {
  const needed = decodeBytes(facts);
  if (needed <= budget) return undefined;
  const megapixels = Math.floor(budget / bytesPerPixel(facts) / 1_000_000);
  return (
    `The image is too large: ${facts.width}×${facts.height} pixels is over the ${megapixels} megapixel limit for ${kindOf(facts)} ` +
    `(decoding it would take about ${Math.round(needed / 1_000_000)} MB of memory)`
  );
}

function kindOf(facts: DecodeFacts): string {
  if (facts.decoder === 'heic') return 'HEIC/HEIF images';
  if (facts.format === 'heif') return 'AVIF images';
  if (facts.format === 'gif') return 'GIF images';
  if (facts.format === 'webp') return 'WebP images';
  if (facts.format === 'jpeg') return 'progressive JPEG images';
  return 'interlaced PNG images';
}
