import { type FileHandle, open } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { ERRORS, isPathInsideDirectory } from '@tus/utils';
import { writeAll } from '../shared/write-all.js';

/** How many bytes of a PATCH body are gathered, at most, before one write to the file. */
export const COALESCE_BYTES = 1024 * 1024;
/** …and for how long: bytes wait no longer than this (on a slow or stalled connection too) before they are written. */
export const COALESCE_MS = 100;

/**
 * @tus/file-store's FileStore, except that a PATCH body is written in writes of up to ~1 MB, or what
 * came in 100 ms, rather than one write per socket chunk (64 KB or less) through a write stream:
 * the per-chunk writes, their callbacks and the stream's bookkeeping were most of the extra server
 * CPU tus cost over multipart (decisions 0041, 0042). What tus promises still holds: the file's
 * size is the upload's offset, and the bytes a client sent before it stopped or was cut off are
 * kept, so it resumes after them. A process killed mid-PATCH loses only what it held unwritten —
 * at most the last 100 ms or 1 MB of each body — which the client's HEAD then asks for again.
 */
export class CoalescingFileStore extends FileStore {
  private readonly coalesceMs: number;

  constructor(options: ConstructorParameters<typeof FileStore>[0] & { coalesceMs?: number }) {
    const { coalesceMs = COALESCE_MS, ...storeOptions } = options;
    super(storeOptions);
    this.coalesceMs = coalesceMs;
  }

  override async write(readable: Readable, fileId: string, offset: number): Promise<number> {
    const file = path.join(this.directory, fileId);
    if (!isPathInsideDirectory(this.directory, file)) throw ERRORS.FILE_NOT_FOUND;
    const handle = await open(file, 'r+').catch(() => {
      throw ERRORS.FILE_WRITE_ERROR;
    });
    const writes = new GatheredWrites(handle, offset, this.coalesceMs);
    let failure: unknown;
    try {
      for await (const chunk of readable as AsyncIterable<Buffer>) await writes.add(chunk);
    } catch (error) {
      failure = error;
    }
    // What arrived before a failure is kept too: the client resumes from the file's size.
    const written = await writes.finish();
    await handle.close().catch(() => undefined);
    if (failure !== undefined || written.error !== undefined) throw ERRORS.FILE_WRITE_ERROR;
    return written.position;
  }
}

/**
 * Chunks gathered and written in order, one write at a time, each at the end of the last. After a
 * failed write nothing more is written, so the file never holds bytes past a gap.
 */
class GatheredWrites {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private pendingSince = 0;
  private position: number;
  private writing: Promise<void> = Promise.resolve();
  private error: unknown;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly handle: FileHandle,
    offset: number,
    private readonly coalesceMs: number,
  ) {
    this.position = offset;
  }

  /** Takes a chunk; waits for the writes when a full megabyte, or 100 ms of bytes, has gathered (back-pressure). */
  async add(chunk: Buffer): Promise<void> {
    if (this.pendingBytes === 0) {
      this.pendingSince = performance.now();
      // Written even if nothing more comes (a stalled client).
      this.timer = setTimeout(() => void this.flush(), this.coalesceMs).unref();
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= COALESCE_BYTES || performance.now() - this.pendingSince >= this.coalesceMs) await this.flush();
  }

  /** Writes what is left; where the file ends, and the first write error if any. */
  async finish(): Promise<{ position: number; error: unknown }> {
    await this.flush();
    return { position: this.position, error: this.error };
  }

  private flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingBytes === 0) return this.writing;
    const buffers = this.pending;
    const bytes = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    this.writing = this.writing.then(async () => {
      if (this.error !== undefined) return;
      try {
        await writeAll(this.handle, buffers, this.position);
        this.position += bytes;
      } catch (error) {
        this.error = error;
      }
    });
    return this.writing;
  }
}
