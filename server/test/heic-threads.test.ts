import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HeicThreads } from '../src/image-processing/decoders/heic-threads.js';
import { TESTDATA } from './support/images.js';

const rssMb = () => process.memoryUsage().rss / 1_048_576;

describe('HEIC decoder threads', () => {
  it('end once idle, giving the decoder’s memory back, and start again for the next decode', async () => {
    const threads = new HeicThreads(500);
    const file = await readFile(path.join(TESTDATA, 'formats/HMD_Nokia_8.3_5G_hdr.heif'));
    let decoded: Awaited<ReturnType<HeicThreads['decode']>> | undefined = await threads.decode(file);
    expect([decoded.width, decoded.height]).toEqual([4608, 3456]);
    decoded = undefined;
    expect(threads.threadCount).toBe(1);
    const whileIdle = rssMb();

    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(threads.threadCount).toBe(0);
    // The thread held the WASM instance's memory (~120 MB for this 16 MP photo) until it ended.
    expect(rssMb(), `RSS with the idle thread: ${Math.round(whileIdle)} MB`).toBeLessThan(whileIdle - 40);

    expect((await threads.decode(file)).width).toBe(4608);
    expect(threads.threadCount).toBe(1);
    await threads.close();
  }, 30_000);
});
