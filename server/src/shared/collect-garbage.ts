import { Session } from 'node:inspector';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'major' | 'minor'; execution: 'async' }) => void;

let gc: Gc | undefined;

/**
 * Asks V8 for a full collection, run as a task after the current one. On Node 20 a synchronous
 * `gc()` given options collects nothing (a dropped 150 MB array stayed counted), so it is
 * asynchronous. No --expose-gc needed: the flag is set, then `gc` read in a fresh context.
 */
export function collectGarbage(): void {
  gc ??= exposeGc();
  gc({ type: 'major', execution: 'async' });
}

/**
 * Asks V8 for a collection of the young generation only (a scavenge), run as a task after the
 * current one: what died young goes, with the memory behind its Buffers; ~1–2 ms on the server's
 * heap, where a full collection takes 25–40 ms of the main thread and as much again on V8's helpers.
 */
export function collectYoungGarbage(): void {
  gc ??= exposeGc();
  gc({ type: 'minor', execution: 'async' });
}

/**
 * A full collection now that also moves what is left into as few pages as it can and gives the
 * rest back: what a heap looks like at rest. V8 compacts only pages it finds fragmented enough, and
 * with a floor under its old-generation limit (decision 0023) the pages the modules were loaded into
 * stayed ~5 MB fuller than needed. A synchronous `gc()` (no options) collects; the compaction
 * flag is V8's own, on for this one collection.
 */
export function compactHeap(): void {
  gc ??= exposeGc();
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/**
 * Gives the young generation back down to its smallest size (1 MB a half), as V8's memory reducer
 * does on its own after 8–16 s of rest. The server runs with V8's default young generation (16 MB
 * a half, `npm start`, decision 0038): a crowd then pays a third of the scavenging it paid with 2 MB.
 * But starting grows it to its full size, ~30 MB resident that an idle server should not hold
 * (issue 14: idle ≤ 100 MB). V8 shrinks it only in a collection made to reduce memory — the one
 * it makes when told memory is low — and `gc()` in every form Node 20 takes is not that one. The
 * inspector's `HeapProfiler.collectGarbage` is (in this process, no debugger attached or port
 * opened): ~50–120 ms of full collections on the server's heap. (`v8.queryObjects` starts with the
 * same collection, then visits every object: 0.7 s on a 10,000-photo library's heap.)
 */
export async function shrinkYoungGeneration(): Promise<void> {
  const session = new Session();
  session.connect();
  try {
    await new Promise<void>((resolve, reject) => session.post('HeapProfiler.collectGarbage', (error) => (error ? reject(error) : resolve())));
  } finally {
    session.disconnect();
  }
}

function exposeGc(): Gc {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Gc;
}
