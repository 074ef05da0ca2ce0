import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { collectGarbage } from '../shared/collect-garbage.js';

/** At most one collection a second, however many images finish (callers may ask for less often). */
const MIN_INTERVAL_MS = 1000;
/**
 * Only once image work has left at least this much outside V8's heap since the last collection
 * (sharp's output buffers: about 1 MB per 22 MP photo). Each forced collection is a full,
 * non-incremental one — ~30 ms of the main thread on a 35 MB heap (--trace-gc) — so an import of
 * small pictures, whose buffers are a few KB, should not pay one every second for nothing.
 */
const EXTERNAL_GROWTH_BYTES = 8 * 1024 * 1024;

/**
 * The event loop was at least this busy since the last collection asked for: people are being
 * served. A forced collection is a full, non-incremental one — 40–60 ms of the main thread on the
 * heap a crowd keeps (issue 13's soak, every 4 s while its small uploads were processed), a pause
 * every waiting request pays — while under such load V8 collects often by itself, incrementally.
 * So while the loop is that busy, the collection comes at most every BUSY_INTERVAL_MS: left out
 * entirely, the crowd's heap grew to ~850 MB in the 60 s soak (~550 MB with one every 4 s). The one
 * when image work pauses still comes.
 */
const BUSY_LOOP = 0.75;
const BUSY_INTERVAL_MS = 20_000;

/** Once image work pauses this long, one last collection gives back what the last images left. */
const QUIET_MS = 2000;

let trailing: NodeJS.Timeout | undefined;
let lastAt = Number.NEGATIVE_INFINITY;
/** External memory just after the last collection (read at the next call: the collection runs as a task). */
let externalBaseline = 0;
let baselinePending = false;
/** The event loop's busy time at the last collection asked for (or passed over because the loop was busy). */
let loopAtLast = performance.eventLoopUtilization();
/** When a collection was last asked for (the process's start counts as one: it begins with a small heap). */
let collectedAt = performance.now();

/**
 * Called as each image's derived files are stored: asks V8 for a full collection — at most once a
 * second, and only when image work has left enough behind, plus once when the work pauses — so what
 * it left goes back before the next images add to it (issue 14, decision 0013). Every derive
 * leaves JavaScript objects holding sharp's output buffers; with a 2 MB young generation they
 * outlive minor collections, and the heap's own limits start a full collection only after tens of
 * megabytes of them (measured: the 1 GB upload's resident memory climbing 175 → 260 MB without it,
 * flat at ~165–200 MB with it). The collection runs as a V8 task after the current one
 * (collect-garbage.ts). `minIntervalMs`: with the decoder process, whose pixels never enter the
 * server, once every 4 s keeps the same peak for less of the server's CPU (decoder-process.ts,
 * COLLECTION_INTERVAL_MS).
 * Less often while the event loop is busy serving (BUSY_LOOP).
 */
export function afterImageWork({ minIntervalMs = MIN_INTERVAL_MS }: { minIntervalMs?: number } = {}): void {
  const external = getHeapStatistics().external_memory;
  if (baselinePending) {
    externalBaseline = external;
    baselinePending = false;
  }
  externalBaseline = Math.min(externalBaseline, external);
  clearTimeout(trailing);
  trailing = setTimeout(collect, QUIET_MS).unref();
  if (performance.now() - lastAt < minIntervalMs || external - externalBaseline < EXTERNAL_GROWTH_BYTES) return;
  if (loopWasBusy() && performance.now() - collectedAt < BUSY_INTERVAL_MS) {
    lastAt = performance.now();
    return;
  }
  collect();
}

/** Whether the event loop was at least BUSY_LOOP busy since the last call (one call per interval at most). */
function loopWasBusy(): boolean {
  const now = performance.eventLoopUtilization();
  const busy = performance.eventLoopUtilization(now, loopAtLast).utilization >= BUSY_LOOP;
  loopAtLast = now;
  return busy;
}

function collect(): void {
  clearTimeout(trailing);
  lastAt = performance.now();
  collectedAt = lastAt;
  loopAtLast = performance.eventLoopUtilization();
  baselinePending = true;
  collectGarbage();
}
