import { crc32 } from 'node:zlib';
import { attempt, type ByteWindow, type Edit, MAX_READ } from './byte-window.js';
import { withEdits } from './patches.js';
import { TEXT_CHUNK_BUDGET, type TextChunkBudget, textChunkLocationEdits } from './png-text.js';
import { exifPayloadEdits } from './tiff.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Chunks walked: a large PNG written in 8 KiB IDAT chunks has a few thousand. */
const MAX_CHUNKS = 50_000;
const MAX_CHUNK_LENGTH = 0x7fffffff;

/**
 * A PNG keeps EXIF in an 'eXIf' chunk (a TIFF structure, before or after the image data) and XMP
 * in an 'iTXt' chunk keyed XML:com.adobe.xmp (some writers use a 'tEXt'); the chunk headers are
 * walked by seeking. A blanked chunk gets its CRC recomputed, so readers that check it keep the
 * chunk's other metadata (zlib.crc32 is in Node from 20.15; package.json asks for 20.19).
 * Metadata in a compressed text chunk — XMP in an iTXt with its compression flag set or in a zTXt
 * (libvips writes it so), ImageMagick's "Raw profile type exif/xmp/iptc/8bim" chunks (hex, as a
 * rule compressed) — cannot be blanked in place: blanking bytes of a zlib stream would corrupt it,
 * and re-compressing would change the length. When it names a position or a place, the whole chunk
 * is emptied instead (png-text.ts), its CRC recomputed here. The other metadata in it goes too, for
 * recipients only (decision 0046).
 * `png` is the whole file: its offsets are the file's.
 */
export async function pngLocationEdits(png: ByteWindow, out: Edit[]): Promise<void> {
  if (!(await png.read(0, SIGNATURE.length)).equals(SIGNATURE)) return;
  const budget: TextChunkBudget = { ...TEXT_CHUNK_BUDGET };
  let at = SIGNATURE.length;
  for (let step = 0; step < MAX_CHUNKS; step += 1) {
    const head = await png.read(at, 8);
    if (head.length < 8) return;
    const length = head.readUInt32BE(0);
    const type = head.toString('latin1', 4, 8);
    if (length > MAX_CHUNK_LENGTH || type === 'IEND') return;
    const data = png.sub(at + 8, length);
    const chunkEdits: Edit[] = [];
    if (type === 'eXIf') await attempt(() => exifPayloadEdits(data, chunkEdits));
    if (type === 'tEXt' || type === 'zTXt' || type === 'iTXt') await attempt(() => textChunkLocationEdits(at + 4, type, data, budget, chunkEdits));
    if (chunkEdits.length > 0) {
      out.push(...chunkEdits);
      await attempt(() => crcEdit(png, at + 4, length, chunkEdits, out));
    }
    at += 8 + length + 4;
  }
}

/** The chunk's CRC (over its type and data) as it must read once `chunkEdits` are applied. */
async function crcEdit(png: ByteWindow, typeAt: number, dataLength: number, chunkEdits: readonly Edit[], out: Edit[]): Promise<void> {
  const crcAt = typeAt + 4 + dataLength;
  if (crcAt + 4 > png.size) return; // a cut-off chunk has no CRC to fix
  let crc = 0;
  for (let at = typeAt; at < crcAt; at += MAX_READ) {
    const length = Math.min(MAX_READ, crcAt - at);
    const blank = blankCovering(chunkEdits, at, length);
    const bytes = blank ?? withEdits(await png.read(at, length), at, chunkEdits);
    if (bytes.length < length) return;
    crc = crc32(bytes, crc);
  }
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc);
  out.push({ offset: crcAt, bytes });
}

/** `length` bytes at `at` when one blank covers them all (a large payload blanked whole): no need to read them. */
function blankCovering(edits: readonly Edit[], at: number, length: number): Buffer | null {
  const edit = edits.find((e) => 'fill' in e && e.offset <= at && e.offset + e.length >= at + length);
  return edit && 'fill' in edit ? Buffer.alloc(length, edit.fill) : null;
}
