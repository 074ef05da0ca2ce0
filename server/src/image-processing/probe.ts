import { open, readFile } from 'node:fs/promises';
import { readHeicSize } from './decoders/heic.js';
import type { Decoder } from '../ingest/file-type.js';
import { MAX_PIXELS } from '../images/limits.js';
import { type DecodeFacts, overDecodeBudget, processingBytes } from './decode-cost.js';
import { gifCanvasSize } from './gif-canvas.js';
import { reason, TooManyPixelsError, UnreadableImageError } from './image-errors.js';
import { loadSharp } from './sharp-loader.js';
import { libvipsTurns } from './libvips-turns.js';

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
    const meta = await libvipsTurns.run(() => sharp(file, { limitInputPixels: false }).metadata()).catch((error: unknown) => {
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
