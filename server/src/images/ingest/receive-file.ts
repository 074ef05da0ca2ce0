import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
 * Streams one uploaded file to a temporary file while hashing it and keeping its first bytes.
 * Memory use is one stream chunk, whatever the file's size. On failure nothing is left on disk.
 */
export async function receiveFile(stream: Readable, tempDir: string): Promise<ReceivedFile> {
  const tempPath = path.join(tempDir, `upload-${randomBytes(12).toString('hex')}`);
  const hash = createHash('sha256');
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      if (headLength < SNIFF_BYTES) {
        const part = chunk.subarray(0, SNIFF_BYTES - headLength);
        headChunks.push(part);
        headLength += part.length;
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(stream, tap, createWriteStream(tempPath));
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
  return { tempPath, sha256: hash.digest('hex'), bytes, head: Buffer.concat(headChunks) };
}
