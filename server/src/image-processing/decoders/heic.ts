/**
 * HEIC/HEIF (the iPhone's default format): sharp's bundled libvips has libheif but no HEVC decoder,
 * so these files are decoded here with libheif-js, an Emscripten (WASM) build of libheif 1.23 with
 * libde265. Decision and measurements: docs/decisions/0002-heic.md.
 *
 * Orientation. A HEIF container carries its own transformations as item properties: `clap` (crop),
 * `irot` (rotation, anticlockwise in steps of 90°) and `imir` (mirror). The HEIF spec makes them
 * authoritative; the EXIF Orientation tag that iPhones also write (6 when the container has irot 3)
 * only describes the same rotation again. libheif applies the container transformations while
 * decoding (we pass no decoding options, so `ignore_transformations` stays false) and never reads
 * EXIF, so `decodeHeic` returns upright pixels and the caller must NOT rotate by EXIF again.
 *
 * Size check. `readHeicSize` does not use libheif (no WASM instance just to read two numbers). It
 * walks the ISO-BMFF boxes itself (ftyp, meta → pitm, iprp → ipco/ipma) in plain TypeScript, reads
 * only the header bytes and allocates nothing in proportion to the claimed image size.
 * `decodeHeic` runs the same parse first and refuses to decode when libheif's idea of the size
 * differs, so the size the caller vetted is the size that gets decoded (libheif itself refuses a
 * decoded image whose size differs from the one signalled in the file).
 */
import { createRequire } from 'node:module';
import { overDecodeBudget } from '../decode-cost.js';

export interface DecodedRaw {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** The file is not a HEIF we can read or decode; `message` says why. */
export class HeicError extends Error {
  override name = 'HeicError';
}

// ---------------------------------------------------------------------------------------------
// Header parsing (ISO/IEC 14496-12 boxes, ISO/IEC 23008-12 HEIF items and properties)
// ---------------------------------------------------------------------------------------------

/** Brands of HEVC-coded HEIF (image, image collection, sequence) and the generic HEIF brands. */
const HEVC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const HEIF_BRANDS = new Set(['mif1', 'mif2', 'msf1']);
const AV1_BRANDS = new Set(['avif', 'avis', 'avio']);

/** More children than any real file has (iPhone: ~6 properties, ~50 items); bounds hostile input. */
const MAX_CHILDREN = 10_000;

interface Box {
  type: string;
  /** First byte after the header (and after version/flags when read as a full box). */
  start: number;
  /** One past the last byte of the box. */
  end: number;
}

/** The boxes directly inside [start, end). Throws when one claims more bytes than there are. */
function childBoxes(buf: Buffer, start: number, end: number, where: string): Box[] {
  const boxes: Box[] = [];
  let pos = start;
  while (pos < end) {
    if (boxes.length >= MAX_CHILDREN) throw new HeicError(`too many boxes in ${where}`);
    if (end - pos < 8) throw new HeicError(`truncated box header in ${where}`);
    const size32 = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    let header = 8;
    let size: number;
    if (size32 === 1) {
      // 64-bit "largesize" follows the type.
      if (end - pos < 16) throw new HeicError(`truncated box header in ${where}`);
      size = buf.readUInt32BE(pos + 8) * 2 ** 32 + buf.readUInt32BE(pos + 12);
      header = 16;
    } else if (size32 === 0) {
      size = end - pos; // "extends to the end of the enclosing container"
    } else {
      size = size32;
    }
    if (type === 'uuid') header += 16;
    // A box longer than what is left means a truncated (or lying) file.
    if (size < header || size > end - pos) throw new HeicError(`'${type}' box in ${where} is truncated or corrupt`);
    boxes.push({ type, start: pos + header, end: pos + size });
    pos += size;
  }
  return boxes;
}

/** The version byte of a full box; its payload then starts 4 bytes later (version + 24-bit flags). */
function fullBox(buf: Buffer, box: Box): { version: number; flags: number; body: Box } {
  if (box.end - box.start < 4) throw new HeicError(`'${box.type}' box is truncated`);
  return {
    version: buf.readUInt8(box.start),
    flags: buf.readUIntBE(box.start + 1, 3),
    body: { type: box.type, start: box.start + 4, end: box.end },
  };
}

/** Bounds-checked big-endian reader over one box's payload. */
class Reader {
  constructor(
    private readonly buf: Buffer,
    private pos: number,
    private readonly end: number,
    private readonly what: string,
  ) {}
  private need(n: number): number {
    if (this.end - this.pos < n) throw new HeicError(`'${this.what}' box is truncated`);
    const at = this.pos;
    this.pos += n;
    return at;
  }
  u8(): number {
    return this.buf.readUInt8(this.need(1));
  }
  u16(): number {
    return this.buf.readUInt16BE(this.need(2));
  }
  u32(): number {
    return this.buf.readUInt32BE(this.need(4));
  }
  i32(): number {
    return this.buf.readInt32BE(this.need(4));
  }
  fourcc(): string {
    const at = this.need(4);
    return this.buf.toString('latin1', at, at + 4);
  }
}

function only(boxes: Box[], type: string, where: string): Box {
  const found = boxes.find((b) => b.type === type);
  if (!found) throw new HeicError(`no '${type}' box in ${where}`);
  return found;
}

function checkBrands(buf: Buffer, ftyp: Box): void {
  const r = new Reader(buf, ftyp.start, ftyp.end, 'ftyp');
  const brands = [r.fourcc()];
  r.u32(); // minor version
  const count = Math.floor((ftyp.end - ftyp.start - 8) / 4);
  for (let i = 0; i < count; i++) brands.push(r.fourcc());
  if (brands.some((b) => HEVC_BRANDS.has(b))) return;
  if (brands.some((b) => AV1_BRANDS.has(b))) throw new HeicError('this is AVIF (AV1-coded), not HEIC');
  if (brands.some((b) => HEIF_BRANDS.has(b))) return; // generic HEIF: libheif decides on decode
  throw new HeicError(`not a HEIF file (brands ${brands.join(', ')})`);
}

/** Rounds a clean-aperture fraction as libheif does ((n + d/2) / d, integer division). */
function clapRound(n: number, d: number): number {
  if (d <= 0 || n <= 0) throw new HeicError("invalid 'clap' property");
  return Math.floor((n + Math.floor(d / 2)) / d);
}

/**
 * The size of the primary image after its container transformations, from the header alone.
 * HEIF puts the coded size in the `ispe` property and the transformations in other properties of
 * the item's `ipma` list: `clap` sets the size to the crop, `irot` by 90° or 270° swaps width and
 * height, `imir` changes nothing. Like libheif, we take `ispe` wherever it is in the list, then
 * apply the transformations in list order (checked against libheif on edited files).
 */
function parseHeader(buf: Buffer): { width: number; height: number } {
  const top = childBoxes(buf, 0, buf.length, 'the file'); // also rejects a truncated file
  if (top[0]?.type !== 'ftyp') throw new HeicError("not a HEIF file (no leading 'ftyp' box)");
  checkBrands(buf, top[0]);
  const meta = fullBox(buf, only(top, 'meta', 'the file')).body;
  const inMeta = childBoxes(buf, meta.start, meta.end, 'meta');

  const hdlrBox = fullBox(buf, only(inMeta, 'hdlr', 'meta')).body;
  const hdlr = new Reader(buf, hdlrBox.start, hdlrBox.end, 'hdlr');
  hdlr.u32(); // pre_defined
  if (hdlr.fourcc() !== 'pict') throw new HeicError('the file holds no still image (handler is not "pict")');

  const pitm = fullBox(buf, only(inMeta, 'pitm', 'meta'));
  const pitmReader = new Reader(buf, pitm.body.start, pitm.body.end, 'pitm');
  const primary = pitm.version === 0 ? pitmReader.u16() : pitmReader.u32();

  const iprp = childBoxes(buf, ...range(only(inMeta, 'iprp', 'meta')), 'iprp');
  const properties = childBoxes(buf, ...range(only(iprp, 'ipco', 'iprp')), 'ipco'); // 1-based in ipma

  // The primary item's property indices, in order. There may be several ipma boxes (by version).
  let associated: number[] | undefined;
  for (const box of iprp.filter((b) => b.type === 'ipma')) {
    const { version, flags, body } = fullBox(buf, box);
    const r = new Reader(buf, body.start, body.end, 'ipma');
    const entries = r.u32();
    for (let i = 0; i < entries && associated === undefined; i++) {
      const item = version < 1 ? r.u16() : r.u32();
      const count = r.u8();
      const indices: number[] = [];
      // Each index is 7 or 15 bits (flag bit 0); the top bit marks the property "essential".
      for (let j = 0; j < count; j++) indices.push(flags & 1 ? r.u16() & 0x7fff : r.u8() & 0x7f);
      if (item === primary) associated = indices;
    }
  }
  if (!associated) throw new HeicError(`the primary item ${primary} has no properties`);

  let width = 0;
  let height = 0;
  for (const index of associated) {
    if (index === 0) continue; // 0 means "no property"
    const prop = properties[index - 1];
    if (!prop) throw new HeicError(`the primary item refers to a missing property (${index})`);
    if (prop.type === 'ispe' && width === 0) {
      const ispe = fullBox(buf, prop).body;
      const r = new Reader(buf, ispe.start, ispe.end, 'ispe');
      width = r.u32();
      height = r.u32();
      if (width === 0 || height === 0) throw new HeicError('the image claims zero width or height');
    }
  }
  if (width === 0) throw new HeicError("the primary item has no size ('ispe' property)");
  for (const index of associated) {
    const prop = properties[index - 1];
    if (prop?.type === 'clap') {
      const r = new Reader(buf, prop.start, prop.end, 'clap');
      const [wN, wD, hN, hD] = [r.i32(), r.i32(), r.i32(), r.i32()];
      const [cropW, cropH] = [clapRound(wN, wD), clapRound(hN, hD)];
      if (cropW < 1 || cropH < 1 || cropW > width || cropH > height) throw new HeicError("invalid 'clap' property");
      [width, height] = [cropW, cropH];
    } else if (prop?.type === 'irot') {
      const quarterTurns = new Reader(buf, prop.start, prop.end, 'irot').u8() & 3;
      if (quarterTurns % 2 === 1) [width, height] = [height, width];
    }
  }
  return { width, height };
}

function range(box: Box): [number, number] {
  return [box.start, box.end];
}

/**
 * Reads only the container header: the pixel size of the primary image AS DISPLAYED (after the
 * container's crop clap, rotation irot and mirror imir), without decoding pixels. Pure JavaScript,
 * microseconds, no WASM. Throws HeicError on a file that is not a readable HEIF, including a
 * truncated one (a top-level box that runs past the end of the buffer).
 */
export async function readHeicSize(file: Buffer): Promise<{ width: number; height: number }> {
  return parseHeader(file);
}

// ---------------------------------------------------------------------------------------------
// Decoding (libheif-js)
// ---------------------------------------------------------------------------------------------

/** An embind enum value; libheif-js compares them with ==/===, as we do. */
type EnumValue = { value: number };
interface HeifError {
  code: EnumValue;
  message: string;
}
interface Plane {
  id: EnumValue;
  width: number;
  height: number;
  stride: number;
  /** A view into the instance's memory: valid until heif_image_release. */
  data: Uint8Array;
}
interface DecodedImage {
  image: unknown;
  width: number;
  height: number;
  channels: Plane[];
}
/** The part of the libheif-js (embind) API used here. */
interface LibHeif {
  heif_context_alloc(): unknown;
  heif_context_free(context: unknown): void;
  heif_context_read_from_memory(context: unknown, data: Uint8Array): HeifError;
  /** A handle object, or a HeifError (it has `code`) when there is no primary image. */
  heif_js_context_get_primary_image_handle(context: unknown): { code?: EnumValue } | null;
  heif_image_handle_get_width(handle: unknown): number;
  heif_image_handle_get_height(handle: unknown): number;
  heif_image_handle_has_alpha_channel(handle: unknown): number;
  heif_image_handle_release(handle: unknown): void;
  /** Synchronous; applies clap/irot/imir. A DecodedImage, or a HeifError-like object on failure. */
  heif_js_decode_image2(
    handle: unknown,
    colorspace: EnumValue,
    chroma: EnumValue,
  ): (Partial<DecodedImage> & { code?: EnumValue; message?: string }) | null;
  heif_image_release(image: unknown): void;
  heif_colorspace: { heif_colorspace_RGB: EnumValue };
  heif_chroma: { heif_chroma_interleaved_RGB: EnumValue; heif_chroma_interleaved_RGBA: EnumValue };
  heif_channel: { heif_channel_interleaved: EnumValue };
}
type LibHeifFactory = (options?: { print?: (text: string) => void; printErr?: (text: string) => void }) => LibHeif;

let factory: LibHeifFactory | undefined;

/**
 * A fresh libheif instance. The bundle (2 MB of JS with the WASM inlined) is loaded on first use,
 * not at server start. Each decode gets its own instance (10–60 ms; the first 100–300 ms), dropped
 * afterwards: WASM memory only ever grows, so a shared instance would keep the largest image's
 * ~100+ MB forever, and an instance that hit an abort on hostile input is unusable anyway.
 */
function newInstance(): LibHeif {
  factory ??= createRequire(import.meta.url)('libheif-js/libheif-wasm/libheif-bundle.js') as LibHeifFactory;
  // libde265 and libheif print warnings for damaged streams; the error we throw says enough.
  return factory({ print: () => {}, printErr: () => {} });
}

/**
 * Decodes the primary image to raw RGB (RGBA when the image has an alpha plane), 8 bits per
 * channel, UPRIGHT: the container transformations (clap/irot/imir) applied exactly once, by
 * libheif. The caller must NOT apply the EXIF Orientation tag again.
 *
 * Cost: synchronous WASM on the calling thread, single-threaded: ~0.6–2.5 s for a 12–16 MP photo,
 * during which the event loop is blocked (run it in a worker or a bounded pool if that matters).
 * Memory: one decoded frame at a time — only the primary image is decoded (no thumbnails, depth
 * or gain maps), tile by tile into one canvas — plus two copies of the file inside the instance and
 * the returned copy of the frame: 11–14 bytes per pixel at peak (measured: 55–75 MB of instance
 * memory for 12 MP iPhone files, 117 MB for a 16 MP 10-bit HDR one, plus the 3-byte copy and the
 * decoder's code), which is what processing/decode-cost.ts budgets. The instance is dropped when the call ends; its memory
 * goes back only once it is collected, or when the thread ends (heic-threads.ts ends idle ones).
 */
export async function decodeHeic(file: Buffer): Promise<DecodedRaw> {
  const expected = parseHeader(file); // HeicError for anything that is not a sound HEIF header
  // Whatever the caller checked: a frame whose decode would not fit the memory budget is refused.
  if (overDecodeBudget({ decoder: 'heic', ...expected, fileBytes: file.length })) {
    throw new HeicError(`the image is too large to decode (${expected.width}×${expected.height})`);
  }

  let heif: LibHeif;
  try {
    heif = newInstance();
  } catch (error) {
    throw new HeicError('the HEIF decoder could not be started', { cause: error });
  }
  const context = heif.heif_context_alloc();
  let handle: unknown;
  let image: unknown;
  try {
    const read = heif.heif_context_read_from_memory(context, file);
    if (read.code.value !== 0) throw new HeicError(`unreadable HEIF: ${read.message}`);
    const primary = heif.heif_js_context_get_primary_image_handle(context);
    if (!primary || primary.code) throw new HeicError('the file has no primary image');
    handle = primary;

    const width = heif.heif_image_handle_get_width(handle);
    const height = heif.heif_image_handle_get_height(handle);
    if (width !== expected.width || height !== expected.height) {
      throw new HeicError(
        `the header says ${expected.width}×${expected.height} but the decoder would produce ${width}×${height}`,
      );
    }
    const channels: 3 | 4 = heif.heif_image_handle_has_alpha_channel(handle) ? 4 : 3;
    const { heif_chroma_interleaved_RGBA: rgba, heif_chroma_interleaved_RGB: rgb } = heif.heif_chroma;
    const chroma = channels === 4 ? rgba : rgb;

    const decoded = heif.heif_js_decode_image2(handle, heif.heif_colorspace.heif_colorspace_RGB, chroma);
    if (!decoded || decoded.code || !decoded.channels) {
      throw new HeicError(`the image could not be decoded${decoded?.message ? `: ${decoded.message}` : ''}`);
    }
    image = decoded.image;
    const plane = decoded.channels.find((c) => c.id.value === heif.heif_channel.heif_channel_interleaved.value);
    const rowBytes = width * channels;
    if (
      !plane ||
      plane.width !== width ||
      plane.height !== height ||
      plane.stride < rowBytes ||
      plane.data.length < plane.stride * (height - 1) + rowBytes
    ) {
      throw new HeicError('the decoder returned an image of an unexpected shape');
    }

    // Copy out of the instance's memory (the plane is a view into it, freed below).
    const data = Buffer.allocUnsafe(rowBytes * height);
    if (plane.stride === rowBytes) {
      data.set(plane.data.subarray(0, rowBytes * height));
    } else {
      for (let y = 0; y < height; y++) {
        data.set(plane.data.subarray(y * plane.stride, y * plane.stride + rowBytes), y * rowBytes);
      }
    }
    return { data, width, height, channels };
  } catch (error) {
    if (error instanceof HeicError) throw error;
    // An Emscripten abort (WebAssembly.RuntimeError) or an embind exception: the instance is dead.
    const reason = error instanceof Error ? error.message : String(error);
    throw new HeicError(`the HEIF decoder failed: ${reason}`, { cause: error });
  } finally {
    // Best effort: after an abort these throw too, and the instance is garbage either way.
    try {
      if (image) heif.heif_image_release(image);
      if (handle) heif.heif_image_handle_release(handle);
      heif.heif_context_free(context);
    } catch {
      /* the instance is discarded */
    }
  }
}
