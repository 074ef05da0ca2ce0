import { attempt, BufferedReads, type ByteWindow, type Edit } from './byte-window.js';
import { SPACE } from './patches.js';

/** How much of a block is read at once: a whole IIM block or JPEG APP13 segment is smaller. */
const CHUNK = 64 * 1024;

/**
 * IPTC-IIM datasets of the application record (2) that name where the photo was taken: content
 * location code (26) and name (27), city (90), sublocation (92), province or state (95), country
 * code (100) and country name (101). Photo editors (Lightroom, Photo Mechanic, digiKam) write them
 * from the photo's position or by hand, next to the same places in XMP (xmp.ts).
 */
const PLACE_DATASETS: ReadonlySet<number> = new Set([26, 27, 90, 92, 95, 100, 101]);
const APPLICATION_RECORD = 2;
const TAG_MARKER = 0x1c;
/** Datasets in one IIM block, resources in one Photoshop block: a few dozen in a real photo. */
const MAX_ENTRIES = 10_000;

/** Signatures of Photoshop image resources ("8BIM", and the few other writers' own). */
const RESOURCE_SIGNATURES: ReadonlySet<string> = new Set(['8BIM', 'MeSa', 'PHUT', 'AgHg', 'DCSR']);
/** The resource holding IPTC-IIM data. */
const IPTC_RESOURCE = 0x0404;

/**
 * Blanks the place names of an IPTC-IIM block (a JPEG's Photoshop resource, a TIFF's IPTC tag):
 * each value becomes spaces, byte for byte, so the dataset keeps its length and every reader still
 * walks the block; the caption, keywords, credit and dates are left as they are. A block that stops
 * making sense (no tag marker where the next dataset should start) is left as read so far.
 */
export async function iimLocationEdits(iim: ByteWindow, out: Edit[]): Promise<void> {
  const bytes = new BufferedReads(iim, CHUNK);
  let at = 0;
  for (let entry = 0; entry < MAX_ENTRIES && at + 5 <= iim.size; entry += 1) {
    const head = await bytes.read(at, 5);
    if (head.length < 5 || head[0] !== TAG_MARKER) return;
    const record = head[1];
    const dataset = head[2]!;
    let length = head.readUInt16BE(3);
    let valueAt = at + 5;
    if (length & 0x8000) {
      // An extended dataset: the low 15 bits say how many bytes then hold the value's length.
      const lengthBytes = length & 0x7fff;
      if (lengthBytes < 1 || lengthBytes > 4) return;
      const field = await bytes.read(valueAt, lengthBytes);
      if (field.length < lengthBytes) return;
      length = field.readUIntBE(0, lengthBytes);
      valueAt += lengthBytes;
    }
    if (record === APPLICATION_RECORD && PLACE_DATASETS.has(dataset) && length > 0) out.push(...iim.fill(valueAt, length, SPACE));
    at = valueAt + length;
  }
}

/**
 * Walks Photoshop image resources (a JPEG's APP13 "Photoshop 3.0" segment, a TIFF's tag 34377) to
 * the IPTC-IIM block among them. Each resource: a signature, a 2-byte id, a Pascal name padded to
 * an even length, a 4-byte size and the data, padded to an even length.
 */
export async function photoshopResourceEdits(resources: ByteWindow, out: Edit[]): Promise<void> {
  const bytes = new BufferedReads(resources, CHUNK);
  let at = 0;
  for (let entry = 0; entry < MAX_ENTRIES && at + 12 <= resources.size; entry += 1) {
    const head = await bytes.read(at, 7);
    if (head.length < 7 || !RESOURCE_SIGNATURES.has(head.toString('latin1', 0, 4))) return;
    const id = head.readUInt16BE(4);
    const nameField = 1 + head[6]!;
    const sizeAt = at + 6 + nameField + (nameField % 2);
    const sizeField = await bytes.read(sizeAt, 4);
    if (sizeField.length < 4) return;
    const size = sizeField.readUInt32BE(0);
    const dataAt = sizeAt + 4;
    if (id === IPTC_RESOURCE) await attempt(() => iimLocationEdits(resources.sub(dataAt, size), out));
    at = dataAt + size + (size % 2);
  }
}
