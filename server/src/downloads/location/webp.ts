import { attempt, type ByteWindow, type Edit } from './byte-window.js';
import { exifPayloadEdits } from './tiff.js';
import { xmpLocationEdits } from './xmp.js';

/** Chunks walked: an animation has one per frame, a few thousand at most. */
const MAX_CHUNKS = 50_000;

/**
 * A WebP (RIFF) keeps EXIF in an 'EXIF' chunk (a TIFF structure, some writers put "Exif\0\0"
 * first) and XMP in an 'XMP ' chunk. In an extended WebP both come after the image data, so the
 * chunk headers are walked by seeking. RIFF has no checksums: blanking is all there is to do.
 */
export async function webpLocationEdits(webp: ByteWindow, out: Edit[]): Promise<void> {
  const head = await webp.read(0, 12);
  if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WEBP') return;
  const riff = webp.sub(0, 8 + head.readUInt32LE(4));
  let at = 12;
  for (let step = 0; step < MAX_CHUNKS; step += 1) {
    const chunk = await riff.read(at, 8);
    if (chunk.length < 8) return;
    const size = chunk.readUInt32LE(4);
    const data = riff.sub(at + 8, size);
    const type = chunk.toString('latin1', 0, 4);
    if (type === 'EXIF') await attempt(() => exifPayloadEdits(data, out));
    if (type === 'XMP ') await attempt(() => xmpLocationEdits(data, out));
    at += 8 + size + (size % 2); // chunks are padded to an even length
  }
}
