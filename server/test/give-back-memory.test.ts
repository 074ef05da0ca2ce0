import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { afterImageWork, collectionsAskedFor } from '../src/image-processing/give-back-memory.js';
import { busyFor, longTurns } from './support/long-turns.js';

/** Forced (asked-for) collections of `kind` (full ones unless said) seen while `during` runs and for a moment after. */
async function forcedCollections(during: () => void | Promise<void>, kind: number = constants.NODE_PERFORMANCE_GC_MAJOR): Promise<number> {
  let forced = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as PerformanceEntry & { detail?: { kind: number; flags: number } }).detail;
      if (detail && detail.kind === kind && detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) forced += 1;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  await during();
  await new Promise((resolve) => setTimeout(resolve, 500));
  observer.disconnect();
  return forced;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Collections asked for while `during` runs and for a moment after. The trailing one (image work
 * paused) is the memory-reducing kind that also gives back the young generation (collect-garbage.ts
 * `shrinkYoungGeneration`): V8 reports it as a plain full collection, not a forced one.
 */
async function askedCollections(during: () => void | Promise<void>): Promise<number> {
  const before = collectionsAskedFor();
  await during();
  await new Promise((resolve) => setTimeout(resolve, 500));
  return collectionsAskedFor() - before;
}

describe('the collection asked for after image work', () => {
  // Memory outside V8's heap, as image work leaves it: enough for a collection to be worth asking for.
  const held = Buffer.alloc(32 * 1024 * 1024, 1);

  it('is passed over while the event loop is busy serving, and asked for once it is not', async () => {
    expect(held.length).toBeGreaterThan(0);
    // The loop busy for over the interval, as under a crowd of requests: no forced collection.
    expect(await forcedCollections(() => {
      busyFor(1200);
      afterImageWork({ minIntervalMs: 1000 });
    })).toBe(0);
    // The same work after a quiet interval: the collection comes.
    await sleep(1200);
    expect(await forcedCollections(() => afterImageWork({ minIntervalMs: 1000 }))).toBeGreaterThan(0);
  });

  it('comes once image work has paused only when the loop is quiet as well, not during a crowd', async () => {
    // Quiet: a collection is asked for (and seen done); more image work right after asks for none.
    await sleep(1200);
    afterImageWork({ minIntervalMs: 1000 }); // reads what the last collection left
    const more = Buffer.alloc(32 * 1024 * 1024, 2);
    expect(await forcedCollections(() => afterImageWork({ minIntervalMs: 1000 }))).toBeGreaterThan(0);
    expect(more.length).toBeGreaterThan(0);
    afterImageWork({ minIntervalMs: 60_000 });
    // A crowd keeps every turn busy past the pause after image work: the trailing collection waits.
    const stop = longTurns(20);
    expect(await askedCollections(() => sleep(3500)), 'during the crowd').toBe(0);
    stop();
    // Once the loop is quiet, it comes.
    expect(await askedCollections(() => sleep(4500)), 'after the crowd').toBe(1);
  });

  it("is a collection of the young generation only when asked so (the decoder process's answers), not a full one", async () => {
    await sleep(1200);
    afterImageWork({ minIntervalMs: 1000, youngOnly: true }); // reads what the last collection left
    await sleep(1200);
    const more = Buffer.alloc(32 * 1024 * 1024, 3);
    let full = 0;
    const young = await forcedCollections(async () => {
      full = await forcedCollections(() => afterImageWork({ minIntervalMs: 1000, youngOnly: true }));
    }, constants.NODE_PERFORMANCE_GC_MINOR);
    expect(more.length).toBeGreaterThan(0);
    expect(young).toBeGreaterThan(0);
    expect(full).toBe(0);
    afterImageWork({ minIntervalMs: 60_000 }); // the trailing collection of this test: a full one, as always
  });
});
