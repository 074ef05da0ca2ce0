import { attempt, BufferedReads, type ByteRange, ByteWindow, type Edit, MAX_READ } from './byte-window.js';
import { xmpLocationEdits } from './xmp.js';

/** Extensions and images walked: an animation has a few of each per frame, a few thousand frames at most. */
const MAX_BLOCKS = 100_000;
/** Of an XMP packet in sub-blocks, at most this much is looked into (no photo's XMP comes near it; the file is its uploader's own). */
const MAX_XMP_BYTES = 16 * MAX_READ;
const XMP_APPLICATION = 'XMP DataXMP';
/**
 * The XMP specification's "magic trailer" begins 0x01 0xFF 0xFE 0xFD …: UTF-8 text never holds
 * 0xFE or 0xFF, so these bytes can only be where the packet has ended.
 */
const MAGIC_TRAILER_START = Buffer.from([0x01, 0xff, 0xfe, 0xfd, 0xfc, 0xfb]);

/**
 * A GIF has no EXIF, but may hold XMP in an application extension "XMP DataXMP" (exiftool,
 * Photoshop and ImageMagick write one), before the first frame or after the last, so the whole file
 * is walked: every extension's and every frame's data sub-blocks, by their length bytes, read in
 * windows of MAX_READ. Two layouts are in use:
 * - the specification's: the packet's raw bytes follow the identifier and a 258-byte "magic
 *   trailer" follows them, so that a GIF reader walking them as sub-blocks lands in the trailer
 *   and reaches the terminator. The packet is blanked in place: spaces are never a zero length, so
 *   a reader still walks to the same terminator;
 * - proper sub-blocks (some writers): the packet is their data joined, blanked around the length
 *   bytes, which stay.
 * GIF has no checksums: blanking is all there is to do. A structure that ends early or lies about
 * its lengths stops the walk; what was found before stands.
 */
export async function gifLocationEdits(gif: ByteWindow, out: Edit[]): Promise<void> {
  const blocks = new BlockReader(gif);
  const head = await blocks.bytes(13);
  if (head.length < 13 || !/^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) return;
  blocks.skip(colourTableBytes(head[10]!));
  for (let step = 0; step < MAX_BLOCKS; step += 1) {
    const introducer = await blocks.byte();
    if (introducer === 0x21) {
      const label = await blocks.byte();
      if (label === 0xff) await applicationExtension(gif, blocks, out);
      else await blocks.skipSubBlocks();
    } else if (introducer === 0x2c) {
      const descriptor = await blocks.bytes(9);
      if (descriptor.length < 9) return;
      blocks.skip(colourTableBytes(descriptor[8]!));
      await blocks.byte(); // the LZW minimum code size
      await blocks.skipSubBlocks();
    } else {
      return; // the trailer (0x3b), the file's end, or bytes that are no GIF block
    }
  }
}

/** A global or local colour table's length, from its descriptor's packed byte. */
function colourTableBytes(packed: number): number {
  return packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0;
}

async function applicationExtension(gif: ByteWindow, blocks: BlockReader, out: Edit[]): Promise<void> {
  const identifierLength = await blocks.byte();
  if (identifierLength === null || identifierLength === 0) return;
  const identifier = await blocks.bytes(identifierLength);
  const start = blocks.at;
  if (identifierLength !== 11 || identifier.toString('latin1') !== XMP_APPLICATION) {
    await blocks.skipSubBlocks();
    return;
  }
  const payloads = await blocks.skipSubBlocks(MAX_XMP_BYTES);
  const trailerAt = await indexOf(gif.sub(start, blocks.at - start), MAGIC_TRAILER_START);
  const packet = trailerAt >= 0 ? gif.sub(start, trailerAt) : joined(gif, payloads);
  if (packet) await attempt(() => xmpLocationEdits(packet, out));
}

/** The sub-blocks' data as one window (their length bytes left out). */
function joined(gif: ByteWindow, payloads: readonly ByteRange[]): ByteWindow | null {
  return ByteWindow.joined(payloads.map((p) => gif.sub(p.offset, p.length)));
}

/** Where `needle` first occurs in the window (searched read by read, overlapping), or -1. */
async function indexOf(window: ByteWindow, needle: Buffer): Promise<number> {
  for (let at = 0; at < window.size; at += MAX_READ - needle.length) {
    const bytes = await window.read(at, MAX_READ);
    const found = bytes.indexOf(needle);
    if (found >= 0) return at + found;
    if (bytes.length < MAX_READ) return -1;
  }
  return -1;
}

/**
 * A GIF's blocks read front to back, through reads of MAX_READ (BufferedReads): a frame's data is
 * thousands of sub-blocks of at most 255 bytes, each behind a length byte.
 */
class BlockReader {
  at = 0;
  private readonly reads: BufferedReads;

  constructor(private readonly window: ByteWindow) {
    this.reads = new BufferedReads(window, MAX_READ);
  }

  skip(length: number): void {
    this.at += length;
  }

  /** The next byte, or null at the window's end. */
  async byte(): Promise<number | null> {
    const buffered = this.reads.byteAt(this.at);
    if (buffered !== undefined) {
      this.at += 1;
      return buffered;
    }
    const bytes = await this.bytes(1);
    return bytes.length === 1 ? bytes[0]! : null;
  }

  /** The next `length` bytes, fewer at the window's end. */
  async bytes(length: number): Promise<Buffer> {
    const bytes = await this.reads.read(this.at, length);
    this.at += bytes.length;
    return bytes;
  }

  /**
   * Walks sub-blocks to the terminator (a zero length) and past it. Up to `keepUpTo` bytes, the
   * data ranges are returned too; past that, the walk goes on without keeping them.
   */
  async skipSubBlocks(keepUpTo = 0): Promise<ByteRange[]> {
    const kept: ByteRange[] = [];
    let keptBytes = 0;
    for (;;) {
      const length = await this.byte();
      if (length === null || length === 0) return kept;
      if (keptBytes + length <= keepUpTo) {
        kept.push({ offset: this.at, length });
        keptBytes += length;
      }
      this.at += length;
      if (this.at > this.window.size) return kept;
    }
  }
}
