import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DecodeRequest } from './protocol.js';

/**
 * How the decoder's work is spread over processes: one process for everything (`cpus` undefined),
 * or one process per CPU in `cpus`, each held to its CPU.
 *
 * Why pin (decision 0050): with two photos decoding at once on two cores, Linux often leaves two
 * busy libvips threads sharing one core while the other core idles, for tens of milliseconds at a
 * time, before its load balancing moves one over — here, in a VM. Counted with
 * `perf record -e sched:sched_switch` over the ingest bench's upload: 250–290 of its 370 idle
 * core-ms (about 4% of the upload) fell while the other core had two or more threads waiting; the
 * sharp reference loses as much the same way. A decoding process held to each core cannot be
 * stacked: each core always has its own photo. The sharp reference itself, run as two processes
 * each held to one core, finished its 30 photos in 3.21 s on average against 3.31 s unpinned.
 */
export interface DecoderLanes {
  cpus?: readonly number[];
}

export const ONE_LANE: DecoderLanes = {};

/**
 * Lanes are for the small boxes this is built for. With two cores one stacked pair idles half the
 * machine; with more, each lost core is a smaller share, while every lane is another process
 * (~60–120 MB resident while it works: node, libvips and what a decode leaves).
 */
export const MAX_PINNED_LANES = 4;

/**
 * One lane per CPU this process may run on, when there are 2 to MAX_PINNED_LANES of them, the image
 * pool runs at least that many decodes at once (IMAGE_WORKERS ≥ CPUs, the default: every core then
 * has a photo of its own to work on) and the CPUs can be held to (Linux, with util-linux's
 * `taskset`). Otherwise one process, unpinned.
 */
export function decoderLanes(imageWorkers: number, cpus = allowedCpus()): DecoderLanes {
  if (!cpus || cpus.length < 2 || cpus.length > MAX_PINNED_LANES || imageWorkers < cpus.length || !tasksetPath()) return ONE_LANE;
  return { cpus };
}

/** Derives and avatars: the pixel work, one at a time per lane while there are free lanes. */
export function isHeavy(job: Pick<DecodeRequest, 'kind'>): boolean {
  return job.kind === 'derive' || job.kind === 'avatar';
}

interface LaneLoad {
  heavy: number;
  pending: { size: number };
}

/**
 * The lane for the next request. Pixel work goes where the least pixel work is (a lane not started
 * counts as empty, after the running ones). Light requests (a type, a header, EXIF) go to the first
 * lane running: they never start a process of their own while one runs, and the other lanes never
 * load what they need (file-type and exifr, ~20 MB resident), only sharp.
 */
export function pickLane(lanes: readonly (LaneLoad | undefined)[], heavy: boolean): number {
  if (!heavy) return Math.max(0, lanes.findIndex((lane) => lane !== undefined));
  let best = 0;
  let bestScore = Number.POSITIVE_INFINITY;
  lanes.forEach((lane, index) => {
    // Fewest derives, then a running lane before one to start, then fewest requests.
    const score = lane ? lane.heavy * 1e9 + lane.pending.size : 1e6;
    if (score < bestScore) {
      best = index;
      bestScore = score;
    }
  });
  return best;
}

/** fork() options that start node through `taskset`, held to `cpu` from its first instruction. */
export function pinnedTo(cpu: number, nodeArgs: readonly string[]): { execPath: string; execArgv: string[] } {
  return { execPath: tasksetPath() ?? 'taskset', execArgv: ['--cpu-list', String(cpu), process.execPath, ...nodeArgs] };
}

/** The CPUs this process may run on (Linux: /proc/self/status), e.g. "0-3,6" → [0, 1, 2, 3, 6]. */
export function allowedCpus(status = readStatus()): number[] | undefined {
  const list = status && /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1];
  if (!list) return undefined;
  const cpus: number[] = [];
  for (const part of list.split(',')) {
    const [from, to = from] = part.split('-').map(Number);
    if (!Number.isInteger(from) || !Number.isInteger(to) || (to as number) < (from as number) || (to as number) - (from as number) > 4096) return undefined;
    for (let cpu = from as number; cpu <= (to as number); cpu += 1) cpus.push(cpu);
  }
  return cpus;
}

function readStatus(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return readFileSync('/proc/self/status', 'utf8');
  } catch {
    return undefined;
  }
}

let taskset: string | null | undefined;

/** util-linux's taskset on PATH, if there is one (looked up once). */
function tasksetPath(): string | undefined {
  if (taskset === undefined) {
    taskset = null;
    for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
      if (!dir) continue;
      try {
        accessSync(path.join(dir, 'taskset'), constants.X_OK);
        taskset = path.join(dir, 'taskset');
        break;
      } catch {
        // not here
      }
    }
  }
  return taskset ?? undefined;
}
