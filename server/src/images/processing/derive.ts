import { open, readFile } from 'node:fs/promises';
import { gifCanvasSize } from './gif-canvas.js';
import { rgbaToThumbHash } from 'thumbhash';
import { readHeicSize } from '../decoders/heic.js';
import { heicThreads } from '../decoders/heic-threads.js';
import type { Decoder } from '../ingest/file-type.js';
import { DISPLAY_SIZE, MAX_PIXELS, THUMBNAIL_SIZE } from '../limits.js';
import { type DecodeFacts, overDecodeBudget, processingBytes } from './decode-cost.js';
import { loadSharp, type SharpFunction } from './sharp-loader.js';

/** A libvips pipeline (the namespace type is not reachable through sharp's ESM typings). */
type Sharp = ReturnType<SharpFunction>;

/** A file that cannot become an image; `message` is shown to the person who uploaded it. */
export class UnreadableImageError extends Error {}

export interface UprightSize {
  width: number;
  height: number;
}

/** The upright size, and the memory processing the image will take at its peak (decode-cost.ts). */
export interface ProbedImage extends UprightSize {
  processingBytes: number;
}

/**
 * The upright pixel size read from the file's header alone — nothing is decoded — so a
 * decompression bomb (a tiny file claiming billions of pixels) is refused before it costs memory:
 * over MAX_PIXELS, or over what its decoder could decode within the memory budget (decode-cost.ts).
 */
export async function probeImage(file: string, decoder: Decoder): Promise<ProbedImage> {
  let size: UprightSize;
  let facts: DecodeFacts;
  if (decoder === 'heic') {
    const bytes = await readFile(file);
    size = await readHeicSize(bytes).catch((error: unknown) => {
      throw new UnreadableImageError(`The HEIC/HEIF file could not be read: ${reason(error)}.`);
    });
    facts = { decoder, ...size, fileBytes: bytes.length };
  } else {
    const head = await readHead(file);
    const canvas = gifCanvasSize(head);
    if (canvas) {
      checkPixels(canvas);
      checkDecodeCost({ decoder, format: 'gif', ...canvas });
    }
    const sharp = await loadSharp();
    const meta = await sharp(file, { limitInputPixels: false }).metadata().catch((error: unknown) => {
      throw new UnreadableImageError(`The image could not be read: ${reason(error)}.`);
    });
    const turned = (meta.orientation ?? 1) >= 5;

    const width = meta.width ?? 0;
    const height = meta.pageHeight ?? meta.height ?? 0;
    size = turned ? { width: height, height: width } : { width, height };
    const sampleBytes = meta.depth === 'ushort' || meta.depth === 'short' ? 2 : 1;
    facts = { decoder, format: meta.format, width, height, progressive: meta.isProgressive, channels: meta.channels, sampleBytes };
  }
  if (size.width < 1 || size.height < 1) throw new UnreadableImageError('The image is damaged: it claims to have no pixels.');
  checkPixels(size);
  checkDecodeCost(facts);
  return { ...size, processingBytes: processingBytes(facts) };
}

/** Refuses what its decoder could only decode with more memory than one decode may take. */
function checkDecodeCost(facts: DecodeFacts): void {
  const refusal = overDecodeBudget(facts);
  if (refusal) throw new TooManyPixelsError(`${refusal}.`);
}

/** Thrown for images over the pixel limit; the reason names the limit so people know why. */
export class TooManyPixelsError extends UnreadableImageError {}

function checkPixels(size: UprightSize): void {
  if (size.width * size.height > MAX_PIXELS) {
    throw new TooManyPixelsError(
      `The image is too large: ${size.width}×${size.height} pixels is over the ${MAX_PIXELS / 1_000_000} megapixel limit.`,
    );
  }
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export interface DerivedImages {
  display: { data: Buffer; width: number; height: number };
  thumbnail: { data: Buffer; width: number; height: number };
  /** Base64 ThumbHash of the upright image. */
  placeholder: string;
}

const webp = { quality: 80, effort: 2 } as const;

/**
 * Makes the display image, the thumbnail and the placeholder. The original is decoded once, already
 * shrunk toward display size (JPEG shrink-on-load makes that decode cheap) and EXIF-rotated; those
 * display-size pixels then become the display WebP and, side by side, the thumbnail and the
 * placeholder. Runs in the decoder process (decision 0018), so the display pixels (~8 MB for
 * 1920×1440) are held there for a moment, never by the server. Against encoding the display first
 * and making the thumbnail from its WebP (sessions 4–8, when this ran in the server), ~10% less CPU
 * per photo (191 vs 208–217 ms; issue 14, ingest), and a thumbnail made from pixels never
 * compressed before. HEIC comes out of its decoder upright (container rotation), so its EXIF
 * orientation is not applied again.
 */
export async function deriveImages(file: string, decoder: Decoder): Promise<DerivedImages> {
  const sharp = await loadSharp();
  const source = decoder === 'heic' ? await heicSource(sharp, file) : sharpSource(sharp, file);
  const pixels = await source
    .resize(DISPLAY_SIZE, DISPLAY_SIZE, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch((error: unknown) => {
      throw new UnreadableImageError(`The image could not be decoded: ${reason(error)}.`);
    });
  const shown = rawInput(pixels.info);
  const [display, small] = await Promise.all([
    sharp(pixels.data, shown).webp(webp).toBuffer({ resolveWithObject: true }),
    sharp(pixels.data, shown).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true }),
  ]);
  const [thumbnail, placeholder] = await Promise.all([
    sharp(small.data, rawInput(small.info)).webp(webp).toBuffer({ resolveWithObject: true }),
    thumbHashOf(sharp(small.data, rawInput(small.info))),
  ]);
  return {
    display: { data: display.data, width: display.info.width, height: display.info.height },
    thumbnail: { data: thumbnail.data, width: thumbnail.info.width, height: thumbnail.info.height },
    placeholder,
  };
}

/** How sharp reads back pixels it wrote with `.raw()`. */
function rawInput(info: { width: number; height: number; channels: number }) {
  return { raw: { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 } };
}

/** A square avatar, centred, as WebP: the profile image (spec §2 Profile). */
export async function deriveAvatar(file: string, decoder: Decoder, size: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const source = decoder === 'heic' ? await heicSource(sharp, file) : sharpSource(sharp, file);
  return source
    .resize(size, size, { fit: 'cover', position: 'attention' })
    .webp(webp)
    .toBuffer()
    .catch((error: unknown) => {
      throw new UnreadableImageError(`The image could not be decoded: ${reason(error)}.`);
    });
}

function sharpSource(sharp: SharpFunction, file: string): Sharp {
  // 'truncated' refuses cut-off files instead of showing half a photo; milder warnings (common in
  // camera JPEGs) are tolerated.
  return sharp(file, { failOn: 'truncated', limitInputPixels: MAX_PIXELS, sequentialRead: true }).rotate();
}

async function heicSource(sharp: SharpFunction, file: string): Promise<Sharp> {
  const decoded = await heicThreads.decode(await readFile(file)).catch((error: unknown) => {
    throw new UnreadableImageError(`The HEIC/HEIF image could not be decoded: ${reason(error)}.`);
  });
  return sharp(decoded.data, { raw: { width: decoded.width, height: decoded.height, channels: decoded.channels } });
}

/**
 * ThumbHash accepts up to 100×100 pixels, but keeps only its lowest frequencies (at most 7 across):
 * from 48 px the test photos' placeholders decode to the very same pixels, and the encoder — plain
 * JavaScript on the event loop — takes ~0.3 ms instead of ~2 ms (issue 14, ingest).
 */
const THUMBHASH_INPUT_SIZE = 48;

async function thumbHashOf(image: Sharp): Promise<string> {
  const { data, info } = await image
    .resize(THUMBHASH_INPUT_SIZE, THUMBHASH_INPUT_SIZE, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // libvips messages span lines and name internal functions; the first line is the useful part.
  return (text.split('\n')[0] ?? text).replace(/^Input (file|buffer) /, '').replace(/\.$/, '');
}
