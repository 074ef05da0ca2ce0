import { createHash, randomBytes } from 'node:crypto';
import { type FileHandle, open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { writeAll } from '../shared/write-all.js';
import { SNIFF_BYTES } from './file-type.js';

export interface ReceivedFile {
  /** Temporary file holding the upload; the caller removes it. */
  tempPath: string;
  sha256: string;
  bytes: number;
  /** The first bytes, for deciding the type by content. */
  head: Buffer;
}

/**
 * The temporary copy could not be written (disk full, permissions). The upload itself was read to
 * the end of this file, so the files after it can still be received.
 */
export class TempWriteError extends Error {
  constructor(cause: unknown) {
    super(`The temporary copy of an upload could not be written: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * The bytes gathered before one write to the temporary file. The socket hands over ~15–60 KB at a
 * time; a write per piece was ~65 thread-pool round trips per 1.5 MB photo (measured with strace:
 * 1,942 writes for the 30-photo ingest bench), a few ms of the server's CPU per photo (issue 14).
 */
export const WRITE_BATCH_BYTES = 512 * 1024;

/**
 * Streams one uploaded file to a temporary file while hashing it and keeping its first bytes.
 * Memory use is at most WRITE_BATCH_BYTES and one stream chunk, whatever the file's size: reading
 * pauses while a batch is written. On failure nothing is left on disk: a failed write still reads
 * the input to its end (TempWriteError); a failed input (or `signal` aborting, which destroys it)
 * rejects with that error.
 */
export async function receiveFile(stream: Readable, tempDir: string, options: { signal?: AbortSignal } = {}): Promise<ReceivedFile> {
  const { signal } = options;
  signal?.throwIfAborted();
  const tempPath = path.join(tempDir, `upload-${randomBytes(12).toString('hex')}`);
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let bytes = 0;
  let file: FileHandle | undefined;
  let writeError: unknown;
  let opened = false;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  /** Writes the gathered chunks; a failed write is kept as writeError (the input is still read to its end). */
  const flush = async () => {
    const chunks = batch;
    batch = [];
    batchBytes = 0;
    if (file && writeError === undefined && chunks.length > 0) await writeAll(file, chunks).catch((error: unknown) => (writeError = error));
  };
  const stop = () => stream.destroy(signal?.reason instanceof Error ? signal.reason : new Error('The upload stopped.'));
  signal?.addEventListener('abort', stop, { once: true });
  try {
    file = await open(tempPath, 'w').catch((error: unknown) => {
      writeError = error;
      return undefined;
    });
    opened = file !== undefined;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytes += chunk.length;
      if (headLength < SNIFF_BYTES) {
        const part = chunk.subarray(0, SNIFF_BYTES - headLength);
        headChunks.push(part);
        headLength += part.length;
      }
      if (file && writeError === undefined) {
        batch.push(chunk);
        batchBytes += chunk.length;
        if (batchBytes >= WRITE_BATCH_BYTES) await flush();
      }
    }
    await flush();
    await file?.close().catch((error: unknown) => (writeError ??= error));
    file = undefined;
    if (writeError !== undefined) throw new TempWriteError(writeError);
  } catch (error) {
    await file?.close().catch(() => undefined);
    // Nothing to remove when the temporary file could not even be created.
    if (opened) await rm(tempPath, { force: true });
    throw error;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  return { tempPath, sha256: hash.digest('hex'), bytes, head: Buffer.concat(headChunks) };
}
