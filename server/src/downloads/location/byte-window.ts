import type { ByteReader } from './find-location.js';

/** No single read is larger: metadata is small, and a hostile length must not become a huge buffer. */
export const MAX_READ = 1024 * 1024;

/** Reads one file may cost, whatever its structure claims (each walk has its own smaller cap too). */
const MAX_READS = 100_000;

/** A range of bytes: of the file, or of a window (an item's extent inside 'idat'). */
export interface ByteRange {
  offset: number;
  length: number;
}

/**
 * One change to the file: `length` bytes of `fill` (blanking), or literal `bytes` (a recomputed
 * checksum). Blanks stay lengths until the very end, so blanking a large payload allocates nothing.
 */
export type Edit = { offset: number; length: number; fill: number } | { offset: number; bytes: Buffer };

/** The reader failed (storage, network): not the file's fault, so it must reach the caller. */
export class ReaderFailure extends Error {
  constructor(cause: unknown) {
    super('reading the stored file failed', { cause });
  }
}

/** A file that asks for more reads than any photo needs gets no more. */
class ReadBudgetSpent extends Error {}

/**
 * Runs one part of a walk. A malformed structure throws somewhere inside (a RangeError from a
 * Buffer read past its end, a budget spent): that part simply yields no more edits, while the edits
 * it already made, and the other parts, stand. A failing reader is passed on.
 */
export async function attempt(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ReaderFailure) throw error;
  }
}

/** The stored file behind every window: clips each read to the file and to MAX_READ, and counts them. */
export class Source {
  readonly size: number;
  private reads = 0;
  /**
   * The last read's bytes: a walk often reads a window, then a part of it again (a GIF's XMP,
   * found through the block walk's read and then read as a packet). Never written to.
   */
  private last: { offset: number; bytes: Buffer } | undefined;

  constructor(private readonly reader: ByteReader) {
    this.size = Number.isSafeInteger(reader.size) && reader.size > 0 ? reader.size : 0;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    const wanted = Math.min(length, MAX_READ, this.size - offset);
    if (!(offset >= 0) || !(wanted > 0)) return Buffer.alloc(0);
    const last = this.last;
    if (last && offset >= last.offset && offset + wanted <= last.offset + last.bytes.length) {
      return last.bytes.subarray(offset - last.offset, offset - last.offset + wanted);
    }
    this.reads += 1;
    if (this.reads > MAX_READS) throw new ReadBudgetSpent();
    let bytes: Buffer;
    try {
      bytes = await this.reader.read(offset, wanted);
    } catch (error) {
      throw new ReaderFailure(error);
    }
    const got = bytes.length > wanted ? bytes.subarray(0, wanted) : bytes;
    this.last = { offset, bytes: got };
    return got;
  }

  /** The whole file, as a window. */
  whole(): ByteWindow {
    return ByteWindow.over(this, [{ offset: 0, length: this.size }]);
  }
}

/**
 * A stretch of the file seen as its own bytes from 0: a TIFF structure (whose offsets count from
 * its header), a metadata payload, or an item stored in several extents joined end to end. Every
 * read and every blank is clipped to the window, so a structure can never reach outside its
 * container, however its offsets lie.
 */
export class ByteWindow {
  private constructor(
    private readonly source: Source,
    private readonly pieces: readonly ByteRange[],
    readonly size: number,
  ) {}

  /** A window over `ranges` of the file, each clipped to the file (ranges outside it are dropped). */
  static over(source: Source, ranges: readonly ByteRange[]): ByteWindow {
    const pieces: ByteRange[] = [];
    for (const { offset, length } of ranges) {
      if (!Number.isSafeInteger(offset) || offset < 0 || offset >= source.size || !(length > 0)) continue;
      pieces.push({ offset, length: Math.min(length, source.size - offset) });
    }
    return new ByteWindow(source, pieces, pieces.reduce((sum, p) => sum + p.length, 0));
  }

  /** Windows joined end to end (a payload split over several segments). */
  static joined(windows: readonly ByteWindow[]): ByteWindow | null {
    const first = windows[0];
    if (!first) return null;
    return ByteWindow.over(first.source, windows.flatMap((w) => w.pieces));
  }

  /** Bytes [offset, offset + length) of this window, as a window of their own. */
  sub(offset: number, length = Infinity): ByteWindow {
    return ByteWindow.over(this.source, this.rangesOf(offset, length));
  }

  /** Bytes [offset, offset + length) of the window; fewer at its end; never more than MAX_READ. */
  async read(offset: number, length: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    for (const span of spans(this.rangesOf(offset, Math.min(length, MAX_READ)))) {
      const bytes = await this.source.read(span.offset, span.length);
      // Each range's bytes, in order; a range past what the read returned yields what it got.
      for (const range of span.ranges) parts.push(bytes.subarray(range.offset - span.offset, range.offset - span.offset + range.length));
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** Blank bytes [offset, offset + length) of the window with `fill`, as edits of the file. */
  fill(offset: number, length: number, fill: number): Edit[] {
    return this.rangesOf(offset, length).map((range) => ({ ...range, fill }));
  }

  /** Where bytes [offset, offset + length) of the window lie in the file. */
  rangesOf(offset: number, length: number): ByteRange[] {
    const ranges: ByteRange[] = [];
    if (!(offset >= 0) || !(length > 0)) return ranges;
    let skip = offset;
    let left = Math.min(length, this.size - offset);
    for (const piece of this.pieces) {
      if (left <= 0) break;
      if (skip >= piece.length) {
        skip -= piece.length;
        continue;
      }
      const take = Math.min(piece.length - skip, left);
      ranges.push({ offset: piece.offset + skip, length: take });
      left -= take;
      skip = 0;
    }
    return ranges;
  }
}

/**
 * Ranges in file order grouped into spans of at most MAX_READ, each read at once: a GIF's XMP
 * in sub-blocks is a window of thousands of ranges a byte apart (the length bytes between them),
 * which would otherwise cost a read each.
 */
function spans(ranges: readonly ByteRange[]): Array<ByteRange & { ranges: ByteRange[] }> {
  const out: Array<ByteRange & { ranges: ByteRange[] }> = [];
  for (const range of ranges) {
    const last = out.at(-1);
    const end = range.offset + range.length;
    if (last && range.offset >= last.offset + last.length && end - last.offset <= MAX_READ) {
      last.length = end - last.offset;
      last.ranges.push(range);
    } else {
      out.push({ offset: range.offset, length: range.length, ranges: [range] });
    }
  }
  return out;
}

/**
 * Small reads of a window served from one larger read, so walking a structure of many short
 * entries (dozens of IIM datasets, a GIF frame's thousands of sub-blocks) costs one read of the
 * stored file per `chunk` bytes, not one per entry.
 */
export class BufferedReads {
  private buffer: Buffer = Buffer.alloc(0);
  private bufferAt = 0;

  constructor(
    private readonly window: ByteWindow,
    private readonly chunk: number,
  ) {}

  /** The byte at `at` when it is in what was read last, without waiting (a walk's inner loop). */
  byteAt(at: number): number | undefined {
    const index = at - this.bufferAt;
    return index >= 0 && index < this.buffer.length ? this.buffer[index] : undefined;
  }

  /** Bytes [at, at + length) of the window; fewer at its end. */
  async read(at: number, length: number): Promise<Buffer> {
    if (at < this.bufferAt || at + length > this.bufferAt + this.buffer.length) {
      this.buffer = await this.window.read(at, Math.max(length, this.chunk));
      this.bufferAt = at;
    }
    return this.buffer.subarray(at - this.bufferAt, at - this.bufferAt + length);
  }
}
