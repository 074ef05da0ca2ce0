import { attempt, type ByteWindow, type Edit, ReaderFailure, Source } from './byte-window.js';
import { gifLocationEdits } from './gif.js';
import { isobmffLocationEdits } from './isobmff.js';
import { jpegLocationEdits } from './jpeg.js';
import { toPatches } from './patches.js';
import { pngLocationEdits } from './png.js';
import { tiffLocationEdits } from './tiff.js';
import { webpLocationEdits } from './webp.js';

/** Reads stored bytes at an offset; returns fewer bytes than asked at the end of the file, never more. */
export interface ByteReader {
  size: number;
  read(offset: number, length: number): Promise<Buffer>;
}

/** Replace the file's bytes [offset, offset + bytes.length) with `bytes`. */
export interface Patch {
  offset: number;
  bytes: Buffer;
}

type Container = 'jpeg' | 'png' | 'webp' | 'tiff' | 'isobmff' | 'gif';

const WALKS: Record<Container, (file: ByteWindow, out: Edit[]) => Promise<void>> = {
  jpeg: jpegLocationEdits,
  png: pngLocationEdits,
  webp: webpLocationEdits,
  tiff: tiffLocationEdits,
  isobmff: isobmffLocationEdits,
  gif: gifLocationEdits,
};

const BY_MIME: Readonly<Record<string, Container>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'image/heic': 'isobmff',
  'image/heif': 'isobmff',
  'image/avif': 'isobmff',
  'image/gif': 'gif',
};

/**
 * Patches that remove the photo's position: sorted by offset, non-overlapping, each inside the file.
 * `mime` is the stored type: image/jpeg, image/png, image/webp, image/tiff, image/heic, image/heif, image/avif, image/gif.
 *
 * Only headers and metadata are read, each read at most 1 MiB. A malformed or hostile file never
 * makes this throw: the parts that could be read are patched, the rest yields nothing. A failing
 * reader does make it throw, so the caller never sends a file whose position could not be looked for.
 * Blank patches share their bytes (one buffer of zeros, one of spaces): read them, never write them.
 */
export async function locationPatches(reader: ByteReader, mime: string): Promise<Patch[]> {
  const source = new Source(reader);
  const file = source.whole();
  const edits: Edit[] = [];
  try {
    await attempt(async () => {
      const container = containerOf(await file.read(0, 12)) ?? BY_MIME[mime.toLowerCase()];
      if (container) await WALKS[container](file, edits);
    });
  } catch (error) {
    throw error instanceof ReaderFailure ? error.cause : error;
  }
  return toPatches(edits, source.size);
}

/**
 * The container, from the file's first bytes, so a file stored under the wrong type (a PNG sent
 * as image/jpeg) still has its position found. The stored type is the fallback when the first
 * bytes say nothing (an ISOBMFF file whose first box is not 'ftyp').
 */
function containerOf(head: Buffer): Container | null {
  const text = head.toString('latin1');
  if (head[0] === 0xff && head[1] === 0xd8) return 'jpeg';
  if (text.startsWith('\x89PNG\r\n\x1a\n')) return 'png';
  if (text.startsWith('RIFF') && text.slice(8, 12) === 'WEBP') return 'webp';
  if (text.startsWith('II*\0') || text.startsWith('MM\0*')) return 'tiff';
  if (text.slice(4, 8) === 'ftyp') return 'isobmff';
  if (text.startsWith('GIF8')) return 'gif';
  return null;
}
