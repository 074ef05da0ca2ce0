import type { FileHandle } from 'node:fs/promises';

/**
 * Writes every byte of `chunks` with `writev`, again for what a short write (a full disk, a signal)
 * left; at `position` and on from there when given, else at the file's own position.
 */
export async function writeAll(file: FileHandle, chunks: Buffer[], position?: number): Promise<void> {
  let rest = chunks;
  let at = position;
  while (rest.length > 0) {
    const { bytesWritten } = await file.writev(rest, at);
    if (bytesWritten === 0) throw new Error('The file took no more bytes.');
    if (at !== undefined) at += bytesWritten;
    rest = afterWritten(rest, bytesWritten);
  }
}

/** What remains of `chunks` once their first `written` bytes are on disk (a short write). */
export function afterWritten(chunks: Buffer[], written: number): Buffer[] {
  let skip = written;
  let index = 0;
  while (index < chunks.length && skip >= (chunks[index] as Buffer).length) skip -= (chunks[index++] as Buffer).length;
  const rest = chunks.slice(index);
  if (skip > 0 && rest.length > 0) rest[0] = (rest[0] as Buffer).subarray(skip);
  return rest;
}
