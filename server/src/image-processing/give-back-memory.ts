import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { collectGarbage, collectYoungGarbage, shrinkYoungGeneration } from '../shared/collect-garbage.js';

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
 * The event loop was at least this busy since the last look: people are being served. A forced
 * collection is a full, non-incremental one — 60–90 ms of the main thread on the heap a crowd
 * keeps (issue 13's soak, `--trace-gc`: "testing; GC in old space requested", the longest pauses
 * of the run by far; V8's own full collections there paused 4–13 ms, their marking done
 * incrementally) — a pause every waiting request pays. So while the loop is that busy no
 * collection is asked for, and the one when image work pauses waits until the loop is quiet too.
 * It once came every 20 s under a crowd (decision 0020): left out, the crowd's heap grew to ~850 MB,
 * most of it the gallery pages kept then; since pages are kept only when asked for twice (decision
 * 0028), V8's own collections hold the soak's server at ~250 MB (decision 0029).
 */
const BUSY_LOOP = 0.75;

/**
 * Once image work pauses this long, one last collection gives back what the last images left: one
 * made to reduce memory, which also gives the young generation back down to its smallest size
 * (collect-garbage.ts; V8 would do it by itself only after 8–16 s more of rest).
 */
const QUIET_MS = 2000;

let trailing: NodeJS.Timeout | undefined;
let lastAt = Number.NEGATIVE_INFINITY;
/** External memory just after the last collection (read at the next call: the collection runs as a task). */
let externalBaseline = 0;
let baselinePending = false;
/** The event loop's busy time at the last collection asked for (or passed over because the loop was busy). */
let loopAtLast = performance.eventLoopUtilization();

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
 * COLLECTION_INTERVAL_MS). `youngOnly`: a scavenge instead of a full collection, for what dies young
 * (the decoder process's answers, decision 0049); the one when the work pauses stays a full one.
 * None while the event loop is busy serving (BUSY_LOOP).
 */
export function afterImageWork({ minIntervalMs = MIN_INTERVAL_MS, youngOnly = false }: { minIntervalMs?: number; youngOnly?: boolean } = {}): void {
  const external = getHeapStatistics().external_memory;
  if (baselinePending) {
    externalBaseline = external;
    baselinePending = false;
  }
  externalBaseline = Math.min(externalBaseline, external);
  clearTimeout(trailing);
  const armedAt = performance.eventLoopUtilization();
  trailing = setTimeout(() => collectWhenQuiet(armedAt), QUIET_MS).unref();
  if (performance.now() - lastAt < minIntervalMs || external - externalBaseline < EXTERNAL_GROWTH_BYTES) return;
  if (loopWasBusy()) {
    lastAt = performance.now();
    return;
  }
  collect(youngOnly ? collectYoungGarbage : collectGarbage);
}

/** The collection once image work has paused, put off while the loop was busy serving since `since`. */
function collectWhenQuiet(since: EventLoopUtilization): void {
  const now = performance.eventLoopUtilization();
  if (performance.eventLoopUtilization(now, since).utilization >= BUSY_LOOP) {
    trailing = setTimeout(() => collectWhenQuiet(now), QUIET_MS).unref();
    return;
  }
  collect(() => void shrinkYoungGeneration().catch(() => collectGarbage()));
}

/** Whether the event loop was at least BUSY_LOOP busy since the last call (one call per interval at most). */
function loopWasBusy(): boolean {
  const now = performance.eventLoopUtilization();
  const busy = performance.eventLoopUtilization(now, loopAtLast).utilization >= BUSY_LOOP;
  loopAtLast = now;
  return busy;
}

/** Collections asked for so far (tests: the trailing one is V8's memory-reducing kind, which no GC entry marks as asked for). */
let asked = 0;
export function collectionsAskedFor(): number {
  return asked;
}

function collect(how: () => void = collectGarbage): void {
  asked += 1;
  clearTimeout(trailing);
  lastAt = performance.now();
  loopAtLast = performance.eventLoopUtilization();
  baselinePending = true;
  how();
}
