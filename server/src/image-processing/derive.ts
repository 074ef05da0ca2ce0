import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { rgbaToThumbHash } from 'thumbhash';
import { heicThreads } from './decoders/heic-threads.js';
import type { Decoder } from '../ingest/file-type.js';
import { DISPLAY_SIZE, MAX_PIXELS, THUMBNAIL_SIZE } from '../images/limits.js';
import { reason, UnreadableImageError } from './image-errors.js';
import { loadSharp, type SharpFunction } from './sharp-loader.js';
import { libvipsTurns } from './libvips-turns.js';

// The pixel work, run in the decoder process (decoder-process/, decision 0018; in the server with
// IMAGE_DECODER=inline). What the server reads
// of a file before sending it there — its upright size and what decoding it will cost — is probe.ts.

/** A libvips pipeline (the namespace type is not reachable through sharp's ESM typings). */
type Sharp = ReturnType<SharpFunction>;

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
 * display-size pixels then become, side by side, the display WebP, the thumbnail WebP and the
 * placeholder: three pipelines, each read straight from them. (Until session 32 the thumbnail's
 * pixels were made first and the thumbnail and placeholder read from them: five pipelines in three
 * steps, each step a wait for the decoder's main thread; the ingest bench 0.96–0.98× the reference
 * then, 0.97–0.98× since, in one hour.) Runs in the decoder process (decision 0018), so the display pixels (~8 MB for
 * 1920×1440) are held there for a moment, not by the server (with `IMAGE_DECODER=inline` they are
 * the server's, until give-back-memory.ts's collection). Against encoding the display first
 * and making the thumbnail from its WebP (sessions 4–8, when this ran in the server), ~10% less CPU
 * per photo (191 vs 208–217 ms; issue 14, ingest), and a thumbnail made from pixels never
 * compressed before. HEIC comes out of its decoder upright (container rotation), so its EXIF
 * orientation is not applied again.
 */
export function deriveImages(file: string, decoder: Decoder): Promise<DerivedImages> {
  // A failure is decoded again alone, so its reason is its own (libvips-turns.ts).
  return libvipsTurns.run(() => deriveOnce(file, decoder));
}

/** Derives under way in this process (the task pool runs two side by side on two cores). */
let deriving = 0;

/**
 * libvips threads for the pipelines a derive starts now: one each while two derives run side by
 * side (sharp-loader.ts, decision 0021), two for a derive that runs alone — the last photo of an
 * upload, or one that waits for none — so its resize runs beside its decode on the core the other
 * derive would use, instead of that core idling until the photo is done. Measured on the ingest
 * bench's 30 photos, alternated: 4.72 against 4.57 images/s over seven pairs, five of them faster
 * — within a noisy VM's swings, and the decoder's peaks unchanged (decision 0040). The
 * setting is libvips' own and process-wide: pipelines started later take the value then in force.
 * `VIPS_CONCURRENCY` in the environment still decides, as in libvips. In a decoder process held to
 * one core (decoder-lanes.ts) `availableParallelism()` is 1, so its pipelines take one thread each.
 */
function threadsForNextPipelines(sharp: SharpFunction): void {
  if (process.env.VIPS_CONCURRENCY) return;
  sharp.concurrency(deriving === 1 ? Math.min(2, availableParallelism()) : 1);
}

async function deriveOnce(file: string, decoder: Decoder): Promise<DerivedImages> {
  deriving += 1;
  try {
    return await deriveWithThreads(file, decoder);
  } finally {
    deriving -= 1;
  }
}

async function deriveWithThreads(file: string, decoder: Decoder): Promise<DerivedImages> {
  const sharp = await loadSharp();
  threadsForNextPipelines(sharp);
  const source = decoder === 'heic' ? await heicSource(sharp, file) : sharpSource(sharp, file);
  const pixels = await source
    .resize(DISPLAY_SIZE, DISPLAY_SIZE, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch((error: unknown) => {
      throw new UnreadableImageError(`The image could not be decoded: ${reason(error)}.`);
    });
  const shown = rawInput(pixels.info);
  threadsForNextPipelines(sharp);
  const [display, thumbnail, placeholder] = await Promise.all([
    sharp(pixels.data, shown).webp(webp).toBuffer({ resolveWithObject: true }),
    sharp(pixels.data, shown).resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true }).webp(webp).toBuffer({ resolveWithObject: true }),
    thumbHashOf(sharp(pixels.data, shown)),
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
export function deriveAvatar(file: string, decoder: Decoder, size: number): Promise<Buffer> {
  return libvipsTurns.run(() => avatarOnce(file, decoder, size));
}

async function avatarOnce(file: string, decoder: Decoder, size: number): Promise<Buffer> {
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
