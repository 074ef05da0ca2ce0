import { crc32 } from 'node:zlib';
import { attempt, type ByteWindow, type Edit, MAX_READ } from './byte-window.js';
import { withEdits, ZERO } from './patches.js';
import { TEXT_CHUNK_BUDGET, type TextChunkBudget, textChunkNamesLocation } from './png-text.js';
import { exifPayloadEdits } from './tiff.js';
import { XMP_KEYWORD, xmpLocationEdits } from './xmp.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Chunks walked: a large PNG written in 8 KiB IDAT chunks has a few thousand. */
const MAX_CHUNKS = 50_000;
const MAX_CHUNK_LENGTH = 0x7fffffff;
/**
 * What an emptied text chunk becomes: a private, ancillary, safe-to-copy type (by the case of its
 * letters) that no reader knows, so every reader skips it, as the PNG standard asks.
 */
const EMPTIED = Buffer.from('blNk', 'latin1');
/** An iTXt chunk's keyword, flags, language and translated keyword come first; they are short. */
const MAX_ITXT_HEADER = 64 * 1024;

/**
 * A PNG keeps EXIF in an 'eXIf' chunk (a TIFF structure, before or after the image data) and XMP
 * in an 'iTXt' chunk keyed XML:com.adobe.xmp (some writers use a 'tEXt'); the chunk headers are
 * walked by seeking. A blanked chunk gets its CRC recomputed, so readers that check it keep the
 * chunk's other metadata (zlib.crc32 is in Node from 20.15; package.json asks for 20.19).
 * Metadata in a compressed text chunk — XMP in an iTXt with its compression flag set or in a zTXt
 * (libvips writes it so), ImageMagick's "Raw profile type exif/xmp/iptc/8bim" chunks (hex, as a
 * rule compressed) — cannot be blanked in place: blanking bytes of a zlib stream would corrupt it,
 * and re-compressing would change the length. When it names a position or a place (png-text.ts),
 * the whole chunk is emptied instead: its data zeroed, its type made one readers skip (EMPTIED),
 * its CRC recomputed. The other metadata in it goes too, for recipients only (decision 0046).
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
    if (type === 'iTXt' || type === 'tEXt') await attempt(() => xmpChunkEdits(type, data, chunkEdits));
    if (type === 'tEXt' || type === 'zTXt' || type === 'iTXt') await attempt(() => emptyIfNamesLocation(png, at + 4, type, data, budget, chunkEdits));
    if (chunkEdits.length > 0) {
      out.push(...chunkEdits);
      await attempt(() => crcEdit(png, at + 4, length, chunkEdits, out));
    }
    at += 8 + length + 4;
  }
}

/** XMP kept as text: in an uncompressed iTXt (the standard's way), or a tEXt (some writers' way). */
async function xmpChunkEdits(type: string, data: ByteWindow, out: Edit[]): Promise<void> {
  const head = await data.read(0, MAX_ITXT_HEADER);
  const keywordEnd = head.indexOf(0);
  if (keywordEnd < 0 || head.toString('latin1', 0, keywordEnd) !== XMP_KEYWORD) return;
  if (type === 'tEXt') {
    await xmpLocationEdits(data.sub(keywordEnd + 1), out);
    return;
  }
  const compressed = head[keywordEnd + 1] !== 0;
  const languageEnd = head.indexOf(0, keywordEnd + 3);
  const translatedKeywordEnd = languageEnd < 0 ? -1 : head.indexOf(0, languageEnd + 1);
  if (compressed || translatedKeywordEnd < 0) return;
  await xmpLocationEdits(data.sub(translatedKeywordEnd + 1), out);
}

/** Empties a text chunk whose metadata names where the photo was taken (png-text.ts). */
async function emptyIfNamesLocation(png: ByteWindow, typeAt: number, type: string, data: ByteWindow, budget: TextChunkBudget, out: Edit[]): Promise<void> {
  if (!(await textChunkNamesLocation(type, data, budget))) return;
  out.push({ offset: typeAt, bytes: EMPTIED }, ...data.fill(0, data.size, ZERO));
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
