import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deriveImages } from '../src/image-processing/derive.js';
import { LibvipsTurns } from '../src/image-processing/libvips-turns.js';
import { probeImage } from '../src/image-processing/probe.js';
import { TESTDATA } from './support/images.js';

const file = (name: string) => path.join(TESTDATA, name);
const BROKEN = ['broken/truncated-sony-xperia-z5c.jpg', 'broken/truncated_jpeg.jpg', 'broken/zero-height-sof.jpg', 'broken/not_an_image.jpg'];
const GOOD = ['large/Oppo R7 Plus.jpg', 'camera/Apple iPhone 4.jpg'];

/**
 * libvips has one error buffer per process; decoded side by side, a broken file was refused with
 * another file's reason or "Unknown error" (libvips-turns.ts). Each broken file, decoded beside the
 * others and beside good photos, must always be refused with its own reason.
 */
describe('reasons for refusing broken files, decoded side by side', () => {
  it('are each file’s own, every time', async () => {
    const alone = new Map<string, string>();
    for (const name of BROKEN) alone.set(name, await deriveImages(file(name), 'sharp').then(() => 'decoded', (error: Error) => error.message));
    expect(new Set(alone.values()).size, 'cut off, damaged header, not a picture').toBe(3);
    const wrong: string[] = [];
    for (let round = 0; round < 25; round += 1) {
      const names = [...BROKEN, ...GOOD];
      const results = await Promise.all(names.map((name) => deriveImages(file(name), 'sharp').then(() => 'decoded', (error: Error) => error.message)));
      results.forEach((result, index) => {
        const name = names[index] as string;
        const expected = alone.get(name) ?? 'decoded';
        if (result !== expected) wrong.push(`${name}: ${result}`);
      });
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('hold for the probe too (the server reads headers of several uploads at once)', async () => {
    const probes = await Promise.all(
      Array.from({ length: 10 }, () => [...BROKEN, ...GOOD]).flat().map((name) => probeImage(file(name), 'sharp').then(() => 'read', (error: Error) => error.message)),
    );
    const byName = new Map<string, Set<string>>();
    probes.forEach((result, index) => {
      const name = [...BROKEN, ...GOOD][index % (BROKEN.length + GOOD.length)] as string;
      byName.set(name, (byName.get(name) ?? new Set()).add(result));
    });
    for (const [name, results] of byName) expect([...results], name).toHaveLength(1);
  });
});

describe('LibvipsTurns', () => {
  it('runs work side by side, and runs a failure again with nothing else running', async () => {
    const turns = new LibvipsTurns();
    const log: string[] = [];
    let running = 0;
    const job = (name: string, fails: () => boolean) => () =>
      new Promise<string>((resolve, reject) => {
        running += 1;
        log.push(`${name} starts with ${running} running`);
        setTimeout(() => {
          running -= 1;
          if (fails()) reject(new Error(`${name} failed`));
          else resolve(name);
        }, 20);
      });
    let attempts = 0;
    const results = await Promise.all([
      turns.run(job('a', () => false)),
      turns.run(job('b', () => (attempts += 1) === 1)),
      turns.run(job('c', () => false)),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log.slice(0, 3)).toEqual(['a starts with 1 running', 'b starts with 2 running', 'c starts with 3 running']);
    expect(log[3], 'the retry of b runs alone').toBe('b starts with 1 running');
    // Work that fails alone too fails.
    await expect(turns.run(job('d', () => true))).rejects.toThrow('d failed');
  });
});
