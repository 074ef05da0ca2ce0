import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SNIFF_BYTES } from '../src/ingest/file-type.js';
import { receiveFile, TempWriteError, WRITE_BATCH_BYTES } from '../src/ingest/receive-file.js';
import { afterWritten } from '../src/shared/write-all.js';

/** Pieces of every size a socket may hand over: single bytes, a few KB, more than one write batch. */
function pieces(total: number): Buffer[] {
  const sizes = [1, 7, 1500, 16_384, 65_536, WRITE_BATCH_BYTES + 3, 3];
  const out: Buffer[] = [];
  for (let left = total, i = 0; left > 0; i += 1) {
    const size = Math.min(left, sizes[i % sizes.length] as number);
    out.push(randomBytes(size));
    left -= size;
  }
  return out;
}

describe('receiving one uploaded file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'receive-file-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes every byte in order, gathered into batches, with its hash and first bytes', async () => {
    const chunks = pieces(3 * WRITE_BATCH_BYTES + 12_345);
    const all = Buffer.concat(chunks);
    const received = await receiveFile(Readable.from(chunks), dir);
    expect(received.bytes).toBe(all.length);
    expect(received.sha256).toBe(createHash('sha256').update(all).digest('hex'));
    expect(received.head.equals(all.subarray(0, SNIFF_BYTES))).toBe(true);
    expect((await readFile(received.tempPath)).equals(all)).toBe(true);
  });

  it('keeps a file smaller than one batch, and an empty one', async () => {
    const small = randomBytes(10);
    expect((await readFile((await receiveFile(Readable.from([small]), dir)).tempPath)).equals(small)).toBe(true);
    const empty = await receiveFile(Readable.from([]), dir);
    expect(empty.bytes).toBe(0);
    expect((await readFile(empty.tempPath)).length).toBe(0);
  });

  it('reads the input to its end when the temporary file cannot be written, and leaves nothing', async () => {
    const chunks = pieces(2 * WRITE_BATCH_BYTES);
    const input = Readable.from(chunks);
    await expect(receiveFile(input, path.join(dir, 'missing'))).rejects.toBeInstanceOf(TempWriteError);
    expect(input.readableEnded).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });

  it('removes the temporary file when the input fails half-way', async () => {
    async function* failing() {
      yield randomBytes(WRITE_BATCH_BYTES + 1);
      yield randomBytes(100);
      throw new Error('connection reset');
    }
    await expect(receiveFile(Readable.from(failing()), dir)).rejects.toThrow('connection reset');
    expect(await readdir(dir)).toEqual([]);
  });

  it('after a short write, goes on from the first byte not written', () => {
    const a = Buffer.from('abc');
    const b = Buffer.from('defg');
    expect(afterWritten([a, b], 0).map(String)).toEqual(['abc', 'defg']);
    expect(afterWritten([a, b], 2).map(String)).toEqual(['c', 'defg']);
    expect(afterWritten([a, b], 3).map(String)).toEqual(['defg']);
    expect(afterWritten([a, b], 5).map(String)).toEqual(['fg']);
    expect(afterWritten([a, b], 7)).toEqual([]);
  });
});
