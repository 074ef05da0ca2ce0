import { attempt, ByteWindow, type Edit } from './byte-window.js';
import { photoshopResourceEdits } from './iptc.js';
import { readIfd, tiffHeader, tiffLocationEdits } from './tiff.js';
import { xmpLocationEdits } from './xmp.js';

/** Segments before the image data: a few dozen in any real file. */
const MAX_SEGMENTS = 1_000;
/** Images listed by an MPF index (a phone's depth map and gain map, a camera's previews). */
const MAX_MPF_IMAGES = 16;

const EXIF_ID = Buffer.from('Exif\0', 'latin1');
const XMP_ID = Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1');
const EXTENDED_XMP_ID = Buffer.from('http://ns.adobe.com/xmp/extension/\0', 'latin1');
const MPF_ID = Buffer.from('MPF\0', 'latin1');
/** APP13: Photoshop image resources, which hold the IPTC-IIM block (iptc.ts). */
const PHOTOSHOP_ID = Buffer.from('Photoshop 3.0\0', 'latin1');
/** After the extended XMP id: a 32-character GUID, the full length, and this part's offset. */
const EXTENDED_XMP_HEADER = 32 + 4 + 4;
const MP_ENTRY = 0xb002;
const MP_ENTRY_LENGTH = 16;

const APP1 = 0xe1;
const APP2 = 0xe2;
const APP13 = 0xed;
const SOS = 0xda;
const EOI = 0xd9;

interface ExtendedXmpPart {
  guid: string;
  offset: number;
  data: ByteWindow;
}

/**
 * A JPEG's position lives in its APP1 segments: EXIF (a TIFF structure), the XMP packet, and the
 * extended XMP packet (split over several segments, joined before it is read); the names of its
 * place, in XMP and in the IPTC-IIM block of an APP13 segment (iptc.ts). The segments are
 * walked from the start of the file to the image data (SOS), reading only their headers. Images
 * appended after the first one and listed by an MPF index (APP2) are JPEGs with EXIF of their own,
 * walked the same way. A JPEG's thumbnail (EXIF IFD1) carries no EXIF and is left alone.
 */
export async function jpegLocationEdits(jpeg: ByteWindow, out: Edit[], withMpfImages = true): Promise<void> {
  const soi = await jpeg.read(0, 2);
  if (soi.length < 2 || soi[0] !== 0xff || soi[1] !== 0xd8) return;
  const extendedXmp: ExtendedXmpPart[] = [];
  const mpfImages: number[] = [];
  await attempt(async () => {
    let at = 2;
    for (let step = 0; step < MAX_SEGMENTS; step += 1) {
      const head = await jpeg.read(at, 4);
      if (head.length < 2 || head[0] !== 0xff) return;
      const marker = head[1]!;
      if (marker === 0xff) {
        at += 1; // fill byte
        continue;
      }
      if (marker === SOS || marker === EOI) return;
      if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
        at += 2; // a marker without a length
        continue;
      }
      const length = head.length < 4 ? 0 : head.readUInt16BE(2); // counts itself, not the marker
      if (length < 2) return;
      const payload = jpeg.sub(at + 4, length - 2);
      if (marker === APP1) await attempt(() => app1LocationEdits(payload, out, extendedXmp));
      if (marker === APP2 && withMpfImages) await attempt(() => listMpfImages(payload, at + 4, mpfImages));
      if (marker === APP13) await attempt(() => app13LocationEdits(payload, out));
      at += 2 + length;
    }
  });
  await attempt(() => extendedXmpLocationEdits(extendedXmp, out));
  for (const offset of mpfImages.slice(0, MAX_MPF_IMAGES)) {
    await attempt(() => jpegLocationEdits(jpeg.sub(offset), out, false));
  }
}

async function app1LocationEdits(payload: ByteWindow, out: Edit[], extendedXmp: ExtendedXmpPart[]): Promise<void> {
  const head = await payload.read(0, EXTENDED_XMP_ID.length + EXTENDED_XMP_HEADER);
  const startsWith = (id: Buffer) => head.subarray(0, id.length).equals(id);
  // "Exif\0\0" as the standard says, though a few writers put another byte after the first \0.
  if (startsWith(EXIF_ID)) await tiffLocationEdits(payload.sub(EXIF_ID.length + 1), out);
  else if (startsWith(XMP_ID)) await xmpLocationEdits(payload.sub(XMP_ID.length), out);
  else if (startsWith(EXTENDED_XMP_ID) && head.length === EXTENDED_XMP_ID.length + EXTENDED_XMP_HEADER) {
    extendedXmp.push({
      guid: head.toString('latin1', EXTENDED_XMP_ID.length, EXTENDED_XMP_ID.length + 32),
      offset: head.readUInt32BE(EXTENDED_XMP_ID.length + 36),
      data: payload.sub(head.length),
    });
  }
}

/** APP13 "Photoshop 3.0": image resources, among them the IPTC-IIM block with the place's names. */
async function app13LocationEdits(payload: ByteWindow, out: Edit[]): Promise<void> {
  if ((await payload.read(0, PHOTOSHOP_ID.length)).equals(PHOTOSHOP_ID)) await photoshopResourceEdits(payload.sub(PHOTOSHOP_ID.length), out);
}

/**
 * The extended XMP packet is cut at arbitrary bytes (a property may straddle two segments), so
 * its parts are joined in order of their offsets and read as one text. Parts of other GUIDs than
 * the first (there should be one) are joined separately.
 */
async function extendedXmpLocationEdits(parts: ExtendedXmpPart[], out: Edit[]): Promise<void> {
  const guids = new Set(parts.map((part) => part.guid));
  for (const guid of guids) {
    const ordered = parts.filter((part) => part.guid === guid).sort((a, b) => a.offset - b.offset);
    const packet = ByteWindow.joined(ordered.map((part) => part.data));
    if (packet) await attempt(() => xmpLocationEdits(packet, out));
  }
}

/** Where the images an MPF index lists start in `jpeg` (its offsets count from the MPF TIFF header). */
async function listMpfImages(payload: ByteWindow, payloadOffset: number, images: number[]): Promise<void> {
  const id = await payload.read(0, MPF_ID.length);
  if (!id.equals(MPF_ID)) return;
  const tiff = payload.sub(MPF_ID.length);
  const header = await tiffHeader(tiff);
  if (!header) return;
  const index = await readIfd(tiff, header.firstIfd, header.littleEndian);
  const entries = index?.entries.find((entry) => entry.tag === MP_ENTRY);
  if (!entries || entries.byteLength <= 4) return;
  const list = await tiff.read(entries.value, Math.min(entries.byteLength, MAX_MPF_IMAGES * MP_ENTRY_LENGTH));
  for (let at = 0; at + MP_ENTRY_LENGTH <= list.length; at += MP_ENTRY_LENGTH) {
    const offset = header.littleEndian ? list.readUInt32LE(at + 8) : list.readUInt32BE(at + 8);
    // Offset 0 is the first image: the file itself, already walked.
    if (offset > 0) images.push(payloadOffset + MPF_ID.length + offset);
  }
}
