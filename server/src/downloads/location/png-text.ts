import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { type ByteWindow, type Edit, MAX_READ, Source } from './byte-window.js';
import { iimLocationEdits, photoshopResourceEdits } from './iptc.js';
import { ZERO } from './patches.js';
import { exifPayloadEdits } from './tiff.js';
import { xmpLocationEdits, xmpTextNamesLocation } from './xmp.js';

/**
 * ImageMagick's text chunks holding a whole metadata block, written hex-encoded (and, as a rule,
 * compressed) when it converts a photo to PNG: "Raw profile type exif" (or "APP1"), "xmp", "iptc"
 * and "8bim" (Photoshop resources).
 */
const PROFILE_KEYWORD = /^Raw profile type (exif|app1|xmp|iptc|8bim)$/i;
/** The keyword of a PNG text chunk holding XMP. */
const XMP_KEYWORD = 'XML:com.adobe.xmp';
/** Compressed text read to look inside: more than any metadata block; a larger one is not read. */
const MAX_COMPRESSED = 8 * MAX_READ;
/** What it may inflate to (a zip bomb stops here). */
const MAX_INFLATED = 16 * MAX_READ;
/**
 * What one file's metadata chunks may cost together: a file made of thousands of them is emptied
 * of the rest unread rather than inflated chunk after chunk (each first download pays for it).
 */
export const TEXT_CHUNK_BUDGET = { chunks: 32, inflatedBytes: 64 * MAX_READ } as const;

/** One file's budget for looking into its metadata chunks (pngLocationEdits makes one per file). */
export interface TextChunkBudget {
  chunks: number;
  inflatedBytes: number;
}

/**
 * What an emptied text chunk becomes: a private, ancillary, safe-to-copy type (by the case of its
 * letters) that no reader knows, so every reader skips it, as the PNG standard asks.
 */
const EMPTIED = Buffer.from('blNk', 'latin1');

/** zlib's inflate on the libuv pool: a large chunk never holds the event loop. */
const inflateAsync = promisify(inflate) as (buffer: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>;

/** What a text chunk holds, once its keyword and compression are read. */
type TextChunk = { keyword: string; compressed: boolean; textAt: number };

/**
 * A PNG text chunk's edits ('tEXt', 'zTXt', 'iTXt'; its header read once). XMP kept as plain text
 * (an uncompressed iTXt, the standard's way, or a tEXt, some writers' way) has its location
 * properties blanked one by one (xmp.ts). Metadata that cannot be blanked in place — compressed XMP
 * (libvips writes a zTXt), an ImageMagick profile — is emptied whole when it names a position or a
 * place (namesLocation): its data zeroed, its type made EMPTIED, the same length; png.ts then
 * recomputes the chunk's CRC. `typeAt`: where the chunk's type is in the file.
 */
export async function textChunkLocationEdits(typeAt: number, type: string, data: ByteWindow, budget: TextChunkBudget, out: Edit[]): Promise<void> {
  const chunk = await readHeader(type, data);
  if (!chunk) return;
  if (chunk.keyword === XMP_KEYWORD && !chunk.compressed) {
    await xmpLocationEdits(data.sub(chunk.textAt), out);
    return;
  }
  if (await namesLocation(chunk, data, budget)) out.push({ offset: typeAt, bytes: EMPTIED }, ...data.fill(0, data.size, ZERO));
}

/**
 * Whether a text chunk holds metadata that says where the photo was taken: compressed XMP naming a
 * position or a place (xmp.ts), or an ImageMagick profile whose EXIF has a GPS IFD, whose XMP names
 * one, or whose IPTC names the place. Such a chunk cannot be blanked byte by byte when it is
 * compressed (that would break its zlib stream) nor re-compressed (that would change its length).
 * `'unread'`: too large to look inside, or it inflates past MAX_INFLATED, or the file's `budget` is
 * spent: emptied too, as an XMP packet too large to search is (xmp.ts).
 */
async function namesLocation(chunk: TextChunk, data: ByteWindow, budget: TextChunkBudget): Promise<boolean | 'unread'> {
  const isXmp = chunk.keyword === XMP_KEYWORD;
  const profile = PROFILE_KEYWORD.exec(chunk.keyword)?.[1]?.toLowerCase();
  if (!profile && !isXmp) return false;
  const length = data.size - chunk.textAt;
  budget.chunks -= 1;
  if (length > MAX_COMPRESSED || budget.chunks < 0 || budget.inflatedBytes <= 0) return 'unread';
  const stored = await readAll(data.sub(chunk.textAt, length));
  let text: Buffer;
  if (!chunk.compressed) text = stored;
  else {
    try {
      text = await inflateAsync(stored, { maxOutputLength: Math.min(MAX_INFLATED, budget.inflatedBytes) });
    } catch (error) {
      // Past the limit: unread. A broken stream: no reader gets anything from it either.
      return (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE' ? 'unread' : false;
    }
    budget.inflatedBytes -= text.length;
  }
  if (isXmp) return xmpTextNamesLocation(text.toString('latin1'));
  const block = fromHex(text);
  if (!block) return false;
  if (profile === 'xmp') return xmpTextNamesLocation(block.toString('latin1'));
  const edits: Edit[] = [];
  const window = new Source({ size: block.length, read: async (offset, size) => block.subarray(offset, offset + size) }).whole();
  if (profile === 'iptc') await iimLocationEdits(window, edits);
  else if (profile === '8bim') await photoshopResourceEdits(window, edits);
  else await exifPayloadEdits(window, edits);
  return edits.length > 0;
}

/** The keyword, whether the text is compressed, and where the text starts (tEXt, zTXt and iTXt layouts). */
async function readHeader(type: string, data: ByteWindow): Promise<TextChunk | null> {
  const head = await data.read(0, 64 * 1024);
  const keywordEnd = head.indexOf(0);
  if (keywordEnd < 1 || keywordEnd > 79) return null;
  const keyword = head.toString('latin1', 0, keywordEnd);
  if (type === 'tEXt') return { keyword, compressed: false, textAt: keywordEnd + 1 };
  // zTXt: the compression method byte, then the zlib stream.
  if (type === 'zTXt') return { keyword, compressed: true, textAt: keywordEnd + 2 };
  // iTXt: compression flag and method, then a language tag and a translated keyword, each ending in 0.
  const languageEnd = head.indexOf(0, keywordEnd + 3);
  const translatedEnd = languageEnd < 0 ? -1 : head.indexOf(0, languageEnd + 1);
  if (translatedEnd < 0) return null;
  return { keyword, compressed: head[keywordEnd + 1] !== 0, textAt: translatedEnd + 1 };
}

async function readAll(window: ByteWindow): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let at = 0; at < window.size; at += MAX_READ) parts.push(await window.read(at, MAX_READ));
  return Buffer.concat(parts);
}

/**
 * An ImageMagick profile's bytes: "\n<name>\n<spaces><decimal length>\n" then the bytes as hex,
 * in lines. Null when it does not read as one.
 */
function fromHex(text: Buffer): Buffer | null {
  const match = /^\s*[A-Za-z0-9]+\s+(\d+)\s/.exec(text.toString('latin1', 0, 64));
  if (!match) return null;
  const declared = Number(match[1]);
  const hex = text.toString('latin1', match[0].length).replace(/[^0-9a-fA-F]/g, '');
  const bytes = Buffer.from(hex.length % 2 ? hex.slice(0, -1) : hex, 'hex');
  return bytes.subarray(0, Math.min(declared, bytes.length));
}
