import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';

/**
 * Image work yields to people browsing (issues 13 and 14, decision 0007): the threads that decode
 * and encode pictures run at a lower scheduling priority than the event loop that answers requests.
 * On two cores, two decodes with libvips' worker threads otherwise take the CPU in equal shares
 * with the one thread that serves every gallery page, and its p99 grows fourfold while photos are
 * processed. Linux schedules threads, and a thread's nice value is its own: libvips' workers
 * (named "libvips worker") and the HEIC decoder threads are set to nice 10 — they still get all the
 * CPU nobody else wants, so ingest is as fast when no one browses. Elsewhere this does nothing.
 */
const BACKGROUND_NICE = 10;
const IMAGE_THREAD = 'libvips worker';

const lowered = new Set<number>();

/** The ids of this process's threads (Linux /proc); none elsewhere. */
function threadIds(): string[] {
  if (process.platform !== 'linux') return [];
  try {
    return readdirSync('/proc/self/task');
  } catch {
    return [];
  }
}

/** Lowers every libvips worker thread not lowered yet (cheap: one small directory read). */
export function lowerImageThreads(): void {
  const tids = threadIds();
  // Forget threads that ended, so the set stays as small as the thread count.
  if (lowered.size > tids.length * 2) lowered.clear();
  for (const name of tids) {
    const tid = Number(name);
    if (lowered.has(tid) || tid === process.pid) continue;
    try {
      if (readFileSync(`/proc/self/task/${name}/comm`, 'utf8').trim() !== IMAGE_THREAD) continue;
      os.setPriority(tid, BACKGROUND_NICE);
      lowered.add(tid);
    } catch {
      // The thread ended meanwhile, or priorities cannot be changed here: nothing to do.
    }
  }
}

/** Lowers the calling thread itself (a worker thread: the HEIC decoder). */
export function lowerThisThread(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid !== process.pid) os.setPriority(tid, BACKGROUND_NICE);
  } catch {
    // Not available: the thread keeps the normal priority.
  }
}

/**
 * Lowers every thread of this process (the decoder process: all of it is image work). Threads
 * started later inherit the nice value of the thread that starts them, so this is done once, first.
 */
export function lowerWholeProcess(): void {
  for (const name of threadIds()) {
    try {
      os.setPriority(Number(name), BACKGROUND_NICE);
    } catch {
      // The thread ended meanwhile, or priorities cannot be changed here: nothing to do.
    }
  }
}

/**
 * Lowers a child process from the moment it exists (the decoder process: decoder-process.ts). Its
 * own `lowerWholeProcess()` runs only once its modules are loaded: ~0.1–0.2 s of a core at the
 * event loop's priority, which under issue 13's crowd fell on the first upload, when the server's
 * first turns already waited for a core 30–70 ms each (decision 0037; the waits did not change
 * measurably with this alone: V8's threads and the load generator take most of the second core
 * then). Threads it starts later inherit the value.
 */
export function lowerChildProcess(pid: number | undefined): void {
  if (process.platform !== 'linux' || pid === undefined) return;
  try {
    os.setPriority(pid, BACKGROUND_NICE);
  } catch {
    // Gone already, or priorities cannot be changed here: it lowers itself once loaded.
  }
}
