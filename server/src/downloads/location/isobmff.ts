import { attempt, ByteWindow, type Edit, type ByteRange, MAX_READ } from './byte-window.js';
import { tiffLocationEdits } from './tiff.js';
import { xmpLocationEdits } from './xmp.js';

/** Boxes looked at on one level: a HEIC has about five at the top and ten in its 'meta'. */
const MAX_BOXES = 256;
/** Extents of one metadata item: one in every file seen; a hostile list is not followed. */
const MAX_EXTENTS = 64;
/** EXIF and XMP items looked at: one of each as a rule; a hostile 'iinf' may list thousands. */
const MAX_METADATA_ITEMS = 32;
/** Where, in an Exif item's first bytes, a TIFF header is searched for when its offset field is wrong. */
const TIFF_SEARCH = 64;

interface Box {
  type: string;
  /** Where its content starts, after the header, and where the box ends (both in its parent's window). */
  contentStart: number;
  end: number;
}

type ItemKind = 'exif' | 'xmp';
interface ItemLocation {
  /** 0: offsets in the file; 1: offsets inside the 'idat' box. Others (item references) are not followed. */
  constructionMethod: number;
  extents: ByteRange[];
}

/**
 * HEIC, HEIF and AVIF keep EXIF and XMP as items of the top-level 'meta' box: 'iinf' says which
 * item is which ('Exif', or a 'mime' item of type application/rdf+xml), 'iloc' where its bytes are
 * (in the file, or in the 'idat' box). Only those boxes are read, never the image data. Metadata
 * of tracks (image sequences, 'moov') is not looked at, nor content-encoded (compressed) items.
 */
export async function isobmffLocationEdits(file: ByteWindow, out: Edit[]): Promise<void> {
  const meta = (await childBoxes(file, 0, file.size)).find((box) => box.type === 'meta');
  if (!meta) return;
  // 'meta' is a full box: 4 bytes of version and flags before its children.
  const children = await childBoxes(file, meta.contentStart + 4, meta.end);
  const contentOf = async (type: string) => {
    const box = children.find((child) => child.type === type);
    return box && box.end - box.contentStart <= MAX_READ ? file.read(box.contentStart, box.end - box.contentStart) : null;
  };
  const iinf = await contentOf('iinf');
  const iloc = await contentOf('iloc');
  if (!iinf || !iloc) return;
  const kinds = new Map<number, ItemKind>();
  tryParse(() => readItemKinds(iinf, kinds));
  const locations = new Map<number, ItemLocation>();
  tryParse(() => readItemLocations(iloc, kinds, locations));
  const idat = children.find((child) => child.type === 'idat');
  for (const [id, kind] of [...kinds].slice(0, MAX_METADATA_ITEMS)) {
    const location = locations.get(id);
    if (!location || location.constructionMethod > 1) continue;
    const base = location.constructionMethod === 0 ? file : idat ? file.sub(idat.contentStart, idat.end - idat.contentStart) : null;
    if (!base) continue;
    const item = ByteWindow.joined(location.extents.map((e) => base.sub(e.offset, e.length === 0 ? Infinity : e.length)));
    if (!item) continue;
    await attempt(() => (kind === 'exif' ? exifItemEdits(item, out) : xmpLocationEdits(item, out)));
  }
}

/** Parsing a box read into memory: a field past its end throws, and what was gathered stands. */
function tryParse(parse: () => void): void {
  try {
    parse();
  } catch {
    // malformed: the items read so far are kept
  }
}

/** The boxes in [start, end) of `window`, walked by their headers only. */
async function childBoxes(window: ByteWindow, start: number, end: number): Promise<Box[]> {
  const boxes: Box[] = [];
  let at = start;
  await attempt(async () => {
    for (let step = 0; step < MAX_BOXES && at + 8 <= end; step += 1) {
      const head = await window.read(at, 16);
      if (head.length < 8) return;
      const size32 = head.readUInt32BE(0);
      let headerLength = 8;
      let size = size32;
      if (size32 === 1) {
        if (head.length < 16) return;
        headerLength = 16;
        size = head.readUInt32BE(8) * 2 ** 32 + head.readUInt32BE(12);
      } else if (size32 === 0) {
        size = end - at; // the box runs to the end of its parent
      }
      if (size < headerLength) return;
      const boxEnd = Math.min(at + size, end);
      boxes.push({ type: head.toString('latin1', 4, 8), contentStart: at + headerLength, end: boxEnd });
      at = boxEnd;
    }
  });
  return boxes;
}

/** Item ids that are EXIF or XMP, from the content of an 'iinf' box. */
function readItemKinds(iinf: Buffer, kinds: Map<number, ItemKind>): void {
  const version = iinf.readUInt8(0);
  let at = version === 0 ? 6 : 8; // version, flags, entry count (16 or 32 bits)
  for (let step = 0; step < 100_000 && at + 8 <= iinf.length; step += 1) {
    const size = iinf.readUInt32BE(at);
    if (size < 8) return;
    const end = Math.min(at + size, iinf.length);
    if (iinf.toString('latin1', at + 4, at + 8) === 'infe') {
      const item = readItemInfo(iinf.subarray(at + 8, end));
      if (item) kinds.set(item.id, item.kind);
    }
    at = end;
  }
}

/** One 'infe' box's content: its item id, if the item is EXIF or uncompressed XMP. */
function readItemInfo(infe: Buffer): { id: number; kind: ItemKind } | null {
  const version = infe.readUInt8(0);
  const strings = (from: number) => infe.toString('latin1', from).split('\0');
  if (version >= 2) {
    const id = version === 2 ? infe.readUInt16BE(4) : infe.readUInt32BE(4);
    const typeAt = version === 2 ? 8 : 10;
    const itemType = infe.toString('latin1', typeAt, typeAt + 4);
    if (itemType === 'Exif') return { id, kind: 'exif' };
    if (itemType !== 'mime') return null;
    const [, contentType, encoding] = strings(typeAt + 4); // item name, content type, content encoding
    return isXmp(contentType, encoding) ? { id, kind: 'xmp' } : null;
  }
  const [, contentType, encoding] = strings(8); // versions 0 and 1: id, protection index, then the same strings
  return isXmp(contentType, encoding) ? { id: infe.readUInt16BE(4), kind: 'xmp' } : null;
}

const isXmp = (contentType: string | undefined, encoding: string | undefined) =>
  contentType === 'application/rdf+xml' && !encoding;

/** Where the items in `wanted` are, from the content of an 'iloc' box (versions 0, 1 and 2). */
function readItemLocations(iloc: Buffer, wanted: ReadonlyMap<number, ItemKind>, locations: Map<number, ItemLocation>): void {
  const version = iloc.readUInt8(0);
  let at = 4;
  const sizes = iloc.readUInt8(at);
  const moreSizes = iloc.readUInt8(at + 1);
  at += 2;
  const [offsetSize, lengthSize, baseOffsetSize] = [sizes >> 4, sizes & 0xf, moreSizes >> 4];
  const indexSize = version === 1 || version === 2 ? moreSizes & 0xf : 0;
  const uint = (size: number): number => {
    const value = readSizedUint(iloc, at, size);
    at += size;
    return value;
  };
  const itemCount = uint(version < 2 ? 2 : 4);
  for (let i = 0; i < itemCount && at < iloc.length; i += 1) {
    const id = uint(version < 2 ? 2 : 4);
    const constructionMethod = version === 1 || version === 2 ? uint(2) & 0xf : 0;
    const dataReference = uint(2);
    const baseOffset = uint(baseOffsetSize);
    const extentCount = uint(2);
    // Data in another file (a data reference) cannot be in this one.
    if (!wanted.has(id) || dataReference !== 0 || extentCount > MAX_EXTENTS) {
      at += extentCount * (indexSize + offsetSize + lengthSize);
      continue;
    }
    const extents: ByteRange[] = [];
    for (let e = 0; e < extentCount; e += 1) {
      uint(indexSize);
      const offset = baseOffset + uint(offsetSize);
      extents.push({ offset, length: uint(lengthSize) });
    }
    locations.set(id, { constructionMethod, extents });
  }
}

/** An unsigned field of 0, 4 or 8 bytes; a value beyond 2^53 becomes NaN, which every window ignores. */
function readSizedUint(bytes: Buffer, at: number, size: number): number {
  if (size === 0) return 0;
  if (size === 2) return bytes.readUInt16BE(at);
  if (size === 4) return bytes.readUInt32BE(at);
  if (size === 8) {
    const value = bytes.readBigUInt64BE(at);
    return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : NaN;
  }
  throw new RangeError(`no ${size}-byte field in iloc`);
}

/** An Exif item starts with the offset of its TIFF header (past an "Exif\0\0" prefix, as a rule). */
async function exifItemEdits(item: ByteWindow, out: Edit[]): Promise<void> {
  const head = await item.read(0, TIFF_SEARCH);
  if (head.length < 4) return;
  const stated = 4 + head.readUInt32BE(0);
  if (await startsWithTiff(item, stated)) return tiffLocationEdits(item.sub(stated), out);
  const found = [head.indexOf('II*\0', 0, 'latin1'), head.indexOf('MM\0*', 0, 'latin1')].filter((i) => i >= 0);
  if (found.length > 0) await tiffLocationEdits(item.sub(Math.min(...found)), out);
}

async function startsWithTiff(item: ByteWindow, at: number): Promise<boolean> {
  const magic = (await item.read(at, 4)).toString('latin1');
  return magic === 'II*\0' || magic === 'MM\0*';
}
