import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ImageDecoder } from '../decoder-process/decoder-process.js';
import { type ExifFacts, hasAnyFact, isJpeg, METADATA_HEAD_BYTES } from '../image-processing/exif.js';
import { LocalStorage } from '../storage/local-storage.js';
import type { MediaStorage } from '../storage/storage.js';

/** Who reads EXIF: the decoder process (decision 0031), so the server loads no exifr or sharp for it. */
export type ExifReader = Pick<ImageDecoder, 'exif' | 'exifOfHead'>;

/**
 * The facts of a stored original, reading no more of it than its format needs; null when the
 * original is gone. A local file is read in place (the reader takes only what it needs). From S3 the
 * first METADATA_HEAD_BYTES are streamed, which hold a JPEG's metadata (and an iPhone HEIC's); a
 * picture that keeps it after the image data (TIFF, WebP, AVIF, some HEIC) is then streamed to a
 * temporary file and read there — never whole into memory.
 */
export async function readStoredFacts(storage: MediaStorage, key: string, tempDir: string, reader: ExifReader): Promise<ExifFacts | null> {
  if (storage instanceof LocalStorage) {
    return (await storage.exists(key)) ? reader.exif(storage.pathFor(key)) : null;
  }
  const head = await readStart(storage, key, METADATA_HEAD_BYTES);
  if (!head) return null;
  if (head.complete || isJpeg(head.bytes) || isGif(head.bytes)) return reader.exifOfHead(head.bytes);
  const fromHead = isTiff(head.bytes) ? undefined : await reader.exifOfHead(head.bytes);
  if (fromHead && hasAnyFact(fromHead)) return fromHead;
  return readThroughTempFile(storage, key, tempDir, reader);
}

/** The first `limit` bytes (or a little more: whole chunks) of a stored object; the rest is not fetched. */
async function readStart(storage: MediaStorage, key: string, limit: number): Promise<{ bytes: Buffer; complete: boolean } | null> {
  const object = await storage.read(key);
  if (!object) return null;
  const chunks: Buffer[] = [];
  let length = 0;
  let complete = true;
  try {
    for await (const chunk of object.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= limit) {
        complete = object.size !== undefined && object.size <= length;
        break;
      }
    }
  } finally {
    object.body.destroy();
  }
  return { bytes: Buffer.concat(chunks, length), complete };
}

async function readThroughTempFile(storage: MediaStorage, key: string, tempDir: string, reader: ExifReader): Promise<ExifFacts | null> {
  const object = await storage.read(key);
  if (!object) return null;
  const temp = path.join(tempDir, `facts-${randomBytes(8).toString('hex')}`);
  try {
    await pipeline(object.body, createWriteStream(temp));
    return await reader.exif(temp);
  } finally {
    await rm(temp, { force: true });
  }
}

/** TIFF: its directories may sit anywhere in the file, so a head proves nothing. */
function isTiff(bytes: Buffer): boolean {
  const start = bytes.subarray(0, 4).toString('latin1');
  return start === 'II*\0' || start === 'MM\0*';
}

/** GIF holds no EXIF: nothing more to fetch. */
function isGif(bytes: Buffer): boolean {
  return bytes.subarray(0, 4).toString('latin1') === 'GIF8';
}
