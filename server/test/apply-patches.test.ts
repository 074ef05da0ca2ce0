import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { patchedStream } from '../src/downloads/location/apply-patches.js';

/** The file's bytes with the patches written over them, all at once. */
function patchedWhole(file: Buffer, patches: { offset: number; bytes: Buffer }[]): Buffer {
  const out = Buffer.from(file);
  for (const patch of patches) patch.bytes.copy(out, patch.offset);
  return out;
}

/** The file as a stream of chunks of the given sizes (the last takes the rest). */
function chunked(file: Buffer, sizes: number[]): Readable {
  const chunks: Buffer[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= file.length) break;
    chunks.push(file.subarray(at, at + size));
    at += size;
  }
  if (at < file.length) chunks.push(file.subarray(at));
  return Readable.from(chunks);
}

describe('patchedStream', () => {
  const file = randomBytes(10_000);
  const patches = [
    { offset: 0, bytes: Buffer.alloc(3) },
    { offset: 95, bytes: Buffer.alloc(10, 0xaa) }, // across the first chunk boundary below
    { offset: 4_000, bytes: Buffer.alloc(2_500, 0x20) }, // across several chunks
    { offset: 9_990, bytes: Buffer.alloc(10, 0x01) }, // the file's last bytes
  ];

  it('writes the patches over the bytes however the stream is cut, and keeps the length', async () => {
    for (const sizes of [[100, 1_000, 1_000, 1_000], [1], Array.from({ length: 100 }, () => 97), [10_000], [4_001, 1, 1]]) {
      const out = await buffer(chunked(file, sizes).pipe(patchedStream(patches)));
      expect(out.length).toBe(file.length);
      expect(out.equals(patchedWhole(file, patches))).toBe(true);
    }
  });

  it('leaves the source chunks untouched (the store may still hold them)', async () => {
    const copy = Buffer.from(file);
    await buffer(Readable.from([copy.subarray(0, 5_000), copy.subarray(5_000)]).pipe(patchedStream(patches)));
    expect(copy.equals(file)).toBe(true);
  });

  it('passes a file without patches through as it is', async () => {
    const out = await buffer(chunked(file, [333, 333]).pipe(patchedStream([])));
    expect(out.equals(file)).toBe(true);
  });
});
