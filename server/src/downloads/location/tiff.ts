import { attempt, type ByteWindow, type Edit } from './byte-window.js';
import { iimLocationEdits, photoshopResourceEdits } from './iptc.js';
import { ZERO } from './patches.js';
import { xmpLocationEdits } from './xmp.js';

const GPS_INFO = 0x8825;
const XMP_PACKET = 0x02bc;
/** IPTC-IIM data, and Photoshop image resources (which may hold it too): TIFF files from photo editors. */
const IPTC_NAA = 0x83bb;
const PHOTOSHOP_RESOURCES = 0x8649;
/** The first 8 bytes of a TIFF structure are its header: no IFD or value may claim them. */
const HEADER_LENGTH = 8;
const EXIF_PREFIX = Buffer.from('Exif\0\0', 'latin1');

/** Bytes per value of each TIFF type (BYTE, ASCII, SHORT, LONG, RATIONAL, …, IFD); unknown types: none. */
const TYPE_SIZES: Readonly<Record<number, number>> = {
  1: 1, 2: 1, 6: 1, 7: 1,
  3: 2, 8: 2,
  4: 4, 9: 4, 11: 4, 13: 4,
  5: 8, 10: 8, 12: 8,
};

export interface IfdEntry {
  tag: number;
  type: number;
  count: number;
  /** The 4-byte value field: the value itself when it fits, else the offset of the value. */
  value: number;
  /** Bytes the value takes (0 for an unknown type). */
  byteLength: number;
}

export interface Ifd {
  offset: number;
  entries: IfdEntry[];
  /** Offset of the next IFD, 0 for none. */
  next: number;
  /** The IFD's own bytes: 2-byte count, 12-byte entries, 4-byte next offset (clipped to the window). */
  byteLength: number;
}

/** A TIFF structure's byte order and first IFD, or null when `tiff` does not start with a TIFF header. */
export async function tiffHeader(tiff: ByteWindow): Promise<{ littleEndian: boolean; firstIfd: number } | null> {
  const head = await tiff.read(0, HEADER_LENGTH);
  if (head.length < HEADER_LENGTH) return null;
  const order = head.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const littleEndian = order === 'II';
  // BigTIFF (43) has 8-byte offsets and is not a photo format: it is not read.
  if ((littleEndian ? head.readUInt16LE(2) : head.readUInt16BE(2)) !== 42) return null;
  return { littleEndian, firstIfd: littleEndian ? head.readUInt32LE(4) : head.readUInt32BE(4) };
}

/** The IFD at `offset`, or null when it is not inside the window. Entries cut off by the window's end are left out. */
export async function readIfd(tiff: ByteWindow, offset: number, littleEndian: boolean): Promise<Ifd | null> {
  if (offset < HEADER_LENGTH || offset + 2 > tiff.size) return null;
  const countBytes = await tiff.read(offset, 2);
  const count = littleEndian ? countBytes.readUInt16LE(0) : countBytes.readUInt16BE(0);
  // At most 2 + 65535 × 12 + 4 bytes (768 KiB): within one read.
  const bytes = await tiff.read(offset, 2 + count * 12 + 4);
  const u16 = (at: number) => (littleEndian ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
  const u32 = (at: number) => (littleEndian ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  const entries: IfdEntry[] = [];
  for (let i = 0; i < count && 2 + (i + 1) * 12 <= bytes.length; i += 1) {
    const at = 2 + i * 12;
    const type = u16(at + 2);
    const entryCount = u32(at + 4);
    entries.push({ tag: u16(at), type, count: entryCount, value: u32(at + 8), byteLength: (TYPE_SIZES[type] ?? 0) * entryCount });
  }
  const nextAt = 2 + count * 12;
  return { offset, entries, next: nextAt + 4 <= bytes.length ? u32(nextAt) : 0, byteLength: bytes.length };
}

/**
 * Blanks the GPS position of a TIFF structure (EXIF in a JPEG, HEIC, PNG or WebP, or a TIFF file):
 * the GPS IFD that IFD0 (or IFD1) points to is zeroed, with every value it stores out of line. The
 * pointer itself stays: it then points to an IFD of zero entries, which readers take as "no GPS",
 * and nothing else moves, so the date, camera and orientation read as before. An XMP packet kept in
 * the IFD (TIFF files from photo editors carry one) is blanked the XMP way, and the place names of
 * an IPTC-IIM block the IPTC way (iptc.ts).
 */
export async function tiffLocationEdits(tiff: ByteWindow, out: Edit[]): Promise<void> {
  const header = await tiffHeader(tiff);
  if (!header) return;
  const { littleEndian } = header;
  const ifd0 = await readIfd(tiff, header.firstIfd, littleEndian);
  if (!ifd0) return;
  await blankIfdsPosition(tiff, ifd0, littleEndian, out);
  // Only IFD0 and IFD1 are looked at, so a looping IFD chain costs nothing.
  if (ifd0.next === ifd0.offset) return;
  await attempt(async () => {
    const ifd1 = await readIfd(tiff, ifd0.next, littleEndian);
    if (ifd1) await blankIfdsPosition(tiff, ifd1, littleEndian, out);
  });
}

/** EXIF in a PNG or WebP chunk: the TIFF structure, though some writers copy JPEG's "Exif\0\0" before it. */
export async function exifPayloadEdits(payload: ByteWindow, out: Edit[]): Promise<void> {
  const prefixed = (await payload.read(0, EXIF_PREFIX.length)).equals(EXIF_PREFIX);
  await tiffLocationEdits(prefixed ? payload.sub(EXIF_PREFIX.length) : payload, out);
}

async function blankIfdsPosition(tiff: ByteWindow, ifd: Ifd, littleEndian: boolean, out: Edit[]): Promise<void> {
  for (const entry of ifd.entries) {
    if (entry.tag === GPS_INFO) await attempt(() => blankGpsIfd(tiff, entry.value, littleEndian, out));
    // Values of 4 bytes or fewer sit in the entry itself: no packet or block is that small.
    if (entry.byteLength <= 4) continue;
    const value = () => tiff.sub(entry.value, entry.byteLength);
    if (entry.tag === XMP_PACKET) await attempt(() => xmpLocationEdits(value(), out));
    if (entry.tag === IPTC_NAA) await attempt(() => iimLocationEdits(value(), out));
    if (entry.tag === PHOTOSHOP_RESOURCES) await attempt(() => photoshopResourceEdits(value(), out));
  }
}

async function blankGpsIfd(tiff: ByteWindow, offset: number, littleEndian: boolean, out: Edit[]): Promise<void> {
  const gps = await readIfd(tiff, offset, littleEndian);
  // Already empty (some phones write an empty GPS IFD): nothing to blank, and no patch for nothing.
  if (!gps || (gps.entries.length === 0 && gps.next === 0)) return;
  out.push(...tiff.fill(gps.offset, gps.byteLength, ZERO));
  for (const entry of gps.entries) {
    if (entry.byteLength > 4 && entry.value >= HEADER_LENGTH) out.push(...tiff.fill(entry.value, entry.byteLength, ZERO));
  }
}
