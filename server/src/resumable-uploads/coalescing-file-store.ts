import { open } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { ERRORS, isPathInsideDirectory } from '@tus/utils';

/** How many bytes of a PATCH body are gathered before one write to the file. */
export const COALESCE_BYTES = 1024 * 1024;

/**
 * @tus/file-store's FileStore, except that a PATCH body is written in ~1 MB writes rather than one
 * write per socket chunk (64 KB or less) through a write stream: the per-chunk writes, their
 * callbacks and the stream's bookkeeping were most of the extra server CPU tus cost over multipart
 * (decision 0041). What tus promises still holds: the file's size is the upload's offset, and the
 * bytes a client sent before it stopped or was cut off are kept, so it resumes after them.
 */
export class CoalescingFileStore extends FileStore {
  override async write(readable: Readable, fileId: string, offset: number): Promise<number> {
    const file = path.join(this.directory, fileId);
    if (!isPathInsideDirectory(this.directory, file)) throw ERRORS.FILE_NOT_FOUND;
    const handle = await open(file, 'r+').catch(() => {
      throw ERRORS.FILE_WRITE_ERROR;
    });
    let position = offset;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      const buffers = pending;
      const bytes = pendingBytes;
      pending = [];
      pendingBytes = 0;
      await writeAll(handle, buffers, bytes, position);
      position += bytes;
    };
    let failure: unknown;
    try {
      for await (const chunk of readable as AsyncIterable<Buffer>) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= COALESCE_BYTES) await flush();
      }
    } catch (error) {
      failure = error;
    }
    // What arrived before a failure is kept too: the client resumes from the file's size.
    try {
      await flush();
    } catch (error) {
      failure ??= error;
    } finally {
      await handle.close().catch(() => undefined);
    }
    if (failure !== undefined) throw ERRORS.FILE_WRITE_ERROR;
    return position;
  }
}

type FileHandle = Awaited<ReturnType<typeof open>>;

/** writev may write fewer bytes than asked (a full disk, a signal): the rest is written until done. */
async function writeAll(handle: FileHandle, buffers: Buffer[], bytes: number, position: number): Promise<void> {
  let written = (await handle.writev(buffers, position)).bytesWritten;
  if (written === bytes) return;
  const whole = Buffer.concat(buffers, bytes);
  while (written < bytes) {
    const { bytesWritten } = await handle.write(whole, written, bytes - written, position + written);
    if (bytesWritten === 0) throw new Error('no bytes written');
    written += bytesWritten;
  }
}
