import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COALESCE_BYTES, COALESCE_MS, CoalescingFileStore } from './coalescing-file-store.js';

const CHUNK = 16 * 1024;

function bytes(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}

/** Lets the store's loop run until the stream has nothing more to give. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('CoalescingFileStore', () => {
  let dir: string;
  let store: CoalescingFileStore;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'coalescing-store-'));
    store = new CoalescingFileStore({ directory: dir });
    await writeFile(path.join(dir, 'upload'), '');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('gathers socket-sized chunks into ~1 MB writes, and writes the rest at the end', async () => {
    // No time limit here (a loaded machine must not turn the wait into a write): sizes alone.
    const patient = new CoalescingFileStore({ directory: dir, coalesceMs: 60_000 });
    const body = new PassThrough();
    const written = patient.write(body, 'upload', 0);
    const sent: Buffer[] = [];
    for (let i = 0; i < COALESCE_BYTES / CHUNK - 1; i++) sent.push(bytes(CHUNK, i)), body.write(sent.at(-1));
    await settle();
    expect((await stat(path.join(dir, 'upload'))).size).toBe(0); // one chunk short of a write
    for (let i = 0; i < 3; i++) sent.push(bytes(CHUNK, 100 + i)), body.write(sent.at(-1));
    await settle();
    // The stream may hand over what it holds as one piece, so a write is at least, not exactly, 1 MB.
    expect((await stat(path.join(dir, 'upload'))).size).toBeGreaterThanOrEqual(COALESCE_BYTES);
    body.end();
    const whole = Buffer.concat(sent);
    expect(await written).toBe(whole.length);
    expect((await readFile(path.join(dir, 'upload'))).equals(whole)).toBe(true);
  });

  it('writes what a stalled body sent within a moment, so a crash then loses none of it', async () => {
    const body = new PassThrough();
    const written = store.write(body, 'upload', 0);
    const sent = bytes(200_000, 4);
    body.write(sent);
    const file = path.join(dir, 'upload');
    const deadline = performance.now() + 20 * COALESCE_MS;
    while ((await stat(file)).size < sent.length && performance.now() < deadline) await settle();
    expect((await readFile(file)).equals(sent)).toBe(true);
    body.end();
    expect(await written).toBe(sent.length);
  });

  it('continues at the offset it is given, as a resumed PATCH does', async () => {
    const first = bytes(300_000, 1);
    const second = bytes(2_500_000, 2);
    const one = new PassThrough();
    const endsAt = store.write(one, 'upload', 0);
    one.end(first);
    expect(await endsAt).toBe(first.length);
    const two = new PassThrough();
    const nowAt = store.write(two, 'upload', first.length);
    for (let at = 0; at < second.length; at += CHUNK) two.write(second.subarray(at, at + CHUNK));
    two.end();
    expect(await nowAt).toBe(first.length + second.length);
    expect((await readFile(path.join(dir, 'upload'))).equals(Buffer.concat([first, second]))).toBe(true);
  });

  it('keeps what arrived before the body failed, so the client resumes after it', async () => {
    const body = new PassThrough();
    const written = store.write(body, 'upload', 0);
    const before = bytes(200_000, 3);
    body.write(before);
    await settle();
    body.destroy(new Error('connection reset'));
    await expect(written).rejects.toMatchObject({ status_code: 500 });
    expect((await readFile(path.join(dir, 'upload'))).equals(before)).toBe(true);
  });

  it('refuses an id that leads out of its directory', async () => {
    await expect(store.write(new PassThrough(), '../elsewhere', 0)).rejects.toMatchObject({ status_code: 404 });
  });
});
