import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options?: { type: 'major'; execution: 'async' }) => void;

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

function exposeGc(): Gc {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as Gc;
}
