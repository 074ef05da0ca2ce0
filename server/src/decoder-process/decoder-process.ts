import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Decoder, type SniffedType, sniffImageType } from '../ingest/file-type.js';
import { deriveAvatar, deriveImages, type DerivedImages } from '../image-processing/derive.js';
import { type ExifFacts, readExif, readExifFromBytes } from '../image-processing/exif.js';
import { type ProbedImage, probeImage } from '../image-processing/probe.js';
import { lowerChildProcess, lowerImageThreads } from '../image-processing/background-priority.js';
import { afterImageWork } from '../image-processing/give-back-memory.js';
import { TooManyPixelsError, UnreadableImageError } from '../image-processing/image-errors.js';
import { type DecoderLanes, isHeavy, ONE_LANE, pickLane, pinnedTo } from './decoder-lanes.js';
import type { DecodeReply, DecodeRequest, DecoderReady, EncodedImage } from './protocol.js';

/**
 * Turns uploaded files into the pictures the library shows (media-processor.ts, the profile image),
 * and reads what they say of themselves first: all of it where the pictures are decoded, so the
 * server itself never loads an image library (decision 0031).
 */
export interface ImageDecoder {
  /** What a file's first bytes (SNIFF_BYTES of them) say it is, or why it is refused (file-type.ts). */
  sniff(head: Buffer): Promise<SniffedType | { refused: string }>;
  /** The upright size and decode cost from the file's header (probe.ts); refuses a bomb or an unreadable file. */
  probe(file: string, decoder: Decoder): Promise<ProbedImage>;
  /** What the camera recorded (exif.ts); never fails for missing or broken EXIF. */
  exif(file: string): Promise<ExifFacts>;
  /** The same from a file's first bytes (a stored original's head, fetched from S3: image-info/stored-facts.ts). */
  exifOfHead(head: Buffer): Promise<ExifFacts>;
  /** `peakBytes`: what the decode is expected to hold at its peak (decode-cost.ts), when known. */
  derive(file: string, decoder: Decoder, peakBytes?: number): Promise<DerivedImages>;
  avatar(file: string, decoder: Decoder, size: number, peakBytes?: number): Promise<Buffer>;
  /** A derive's images are stored and dropped: the server may give back what the work left (give-back-memory.ts). */
  afterStored(): void;
}

/**
 * At most this often, the server asks V8 for a collection after pictures decoded here
 * (give-back-memory.ts). No pixels enter the server, but an upload's stream buffers and the encoded
 * results pile up between V8's own collections: the 1 GB upload peaked at 144 MB with none, 120 MB
 * with a full one a second — which cost ~7 ms of the server's CPU per photo — and 121 MB with one
 * every 4 s (decision 0018). They die young: each answer arrives as one ArrayBuffer, the IPC
 * message, dropped once stored. So since decision 0049 the collection is of the young generation
 * only (~1–2 ms instead of a 25–40 ms full one): the 1 GB upload's peak 141 MB, the real mix's
 * 143 MB and 109 MB 30 s after, and ~2 ms less of the server's CPU per photo (issue 14).
 */
export const COLLECTION_INTERVAL_MS = 4000;

/**
 * How long the decoder process is kept without work. Starting one costs ~0.2 s of CPU (node and
 * libvips loading); an upload page sending files three at a time keeps it busy, and once the work
 * pauses this long the process ends and every byte its decodes held goes back to the system.
 */
export const DECODER_IDLE_MS = 5000;

/**
 * A decode expected to hold at least this much (a 20 MP AVIF: ~320 MB; a 12 MP HEIC: ~160 MB) starts
 * in a fresh process when the current one is idle, so what earlier work left in it (glibc's free
 * lists, a HEIC thread's WebAssembly memory in its last 250 ms) is not added to the largest peak;
 * with lanes, every idle lane's process ends then too. Such decodes are few, and starting a process
 * costs ~0.2 s of CPU.
 */
export const FRESH_PROCESS_BYTES = 250_000_000;

/**
 * A picture whose decoder dies while it decodes alone this many times (a hostile file) is refused
 * rather than tried for ever. A death with several pictures in the process blames none of them: each
 * is tried again alone, so a photo that merely decoded beside a hostile file is kept.
 */
const LONE_DEATHS = 2;

/**
 * The longest one picture may take. The slowest test photo (a 20 MP AVIF) takes ~1.5 s here, so this
 * leaves a slow box (a Raspberry Pi, ten times slower) far more than it needs, while a file that
 * sends a codec into an endless loop no longer holds a place in the image pool for ever: its
 * process is ended and the picture refused (the others in it are tried again).
 */
export const DECODE_TIMEOUT_MS = 5 * 60_000;

/**
 * The decoder's own malloc settings, in place of the mmap and trim thresholds `npm start` gives the
 * server (scripts/server-runtime.mjs: memory over 128 KiB mapped and unmapped on each use, so a
 * long-lived process gives back what a burst took). The decoder process is not long-lived: it ends
 * 5 s after its last picture, and all it held goes back then.
 * - Under the server's thresholds every large libvips and libwebp buffer was mapped afresh and
 *   faulted in page by page for each photo, and the pixel work cost ~8% more CPU (the ingest bench
 *   0.85–0.87× the reference with them, 0.91× twice without; decision 0021).
 * - glibc's defaults still faulted in 1,500–2,600 fresh pages per photo: its dynamic thresholds let
 *   an 8 MB display-size buffer go back to the system when freed (unmapped, or trimmed off the
 *   heap's top) and come back page by page for the next photo. With buffers under 32 MiB kept on the
 *   heap (only the largest decodes, a 20 MP AVIF's or a 12 MP HEIC's, are mapped and unmapped) and
 *   up to 64 MiB of free heap kept, ~200–300 are left; with malloc's memory in transparent huge
 *   pages where the kernel offers them (`madvise`), ~20. The ingest bench: 9.34 and 9.31 against
 *   9.04 and 9.12 images/s over 18 alternated rounds, 17 of them as fast or faster; the decoder's
 *   peak within ~15 MB of before (the real mix 414 against 387–400 MB), the server's unchanged
 *   (decision 0047).
 * The single malloc arena stays, as the server has it: with glibc's default of one per thread the
 * decoder's peak doubled and varied from run to run (1 GB upload 310 MB, the real mix 576 MB,
 * against 167 / 385 MB with one arena). Issue 14.
 */
export const DECODER_MALLOC_SETTINGS = {
  MALLOC_MMAP_THRESHOLD_: String(32 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(64 * 1024 * 1024),
} as const;
/** glibc ≥ 2.35: malloc asks for transparent huge pages (madvise); older glibc ignores it. */
export const DECODER_GLIBC_TUNABLE = 'glibc.malloc.hugetlb=1';

/** The decoder process's environment: the server's, with the decoder's own malloc settings instead of the server's. */
export function decoderEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const own: NodeJS.ProcessEnv = { ...env, ...DECODER_MALLOC_SETTINGS };
  own.GLIBC_TUNABLES = env.GLIBC_TUNABLES ? `${env.GLIBC_TUNABLES}:${DECODER_GLIBC_TUNABLE}` : DECODER_GLIBC_TUNABLE;
  return own;
}

// Under the test runner this module is TypeScript source; the process then loads through tsx too.
const fromSource = import.meta.url.endsWith('.ts');
const defaultEntry = fileURLToPath(new URL(fromSource ? './decoder-child.ts' : './decoder-child.js', import.meta.url));

/** Omit over each member of a union, so each kind keeps its own fields. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A request before it is given an id. */
type Job = DistributiveOmit<DecodeRequest, 'id'>;

interface Pending {
  job: Job;
  /** The lane it was sent to (a retry after a death goes to a process of its own). */
  lane: number;
  /** How many times its process died while it was the only picture in it. */
  loneDeaths: number;
  /** Tried again after a death: it runs in a process of its own, which ends with it. */
  alone: boolean;
  timer?: NodeJS.Timeout;
  timedOut?: boolean;
  resolve(reply: DecodeReply & { ok: true }): void;
  reject(error: Error): void;
}

interface Child {
  process: ChildProcess;
  pending: Map<number, Pending>;
  /** Loaded and listening: time limits run from then, so a slow start counts against no picture. */
  ready: boolean;
  /** Its place in `lanes`; undefined for a process trying one picture again alone. */
  lane?: number;
  /** Derives and avatars in it now (the pixel work; the rest is light). */
  heavy: number;
  /** Started through taskset, held to one CPU. */
  pinned: boolean;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Image decoding in a separate process (issue 14, decision 0018). A 20 MP AVIF takes ~300 MB to
 * decode and a 12 MP HEIC ~160 MB; inside the server that memory stayed its own peak, and what libvips
 * and glibc kept after it stayed resident. Here the server holds only file names and the encoded
 * results (a few hundred KB); the process starts on the first picture, runs whatever the image pool
 * lets run at once (task-pool.ts still decides how many and how large), ends after
 * DECODER_IDLE_MS without work, and runs at a background priority as a whole. A decoder that
 * crashes (a hostile file, the kernel's out-of-memory killer) takes down this process, not the
 * server: each picture it was doing is tried again alone in a new one, and refused as undecodable once
 * its decoder has died with it alone twice; a picture
 * over DECODE_TIMEOUT_MS ends its process and is refused. If the server dies, the process sees its
 * channel close and exits.
 *
 * With lanes (the server's default when every core has a picture to decode: decoder-lanes.ts,
 * decision 0050), there is one such process per core, each held to its core and started only when
 * the lanes already running each have a picture: pixel work goes to the lane with the least of it,
 * light requests to the first running lane. Each lane ends once idle, as the single process does.
 */
export class DecoderProcess implements ImageDecoder {
  /** One process per lane, started when a request first needs it; each ends once idle. */
  private lanes: (Child | undefined)[];
  /** Processes each running one picture that is tried again after a death (`Pending.alone`). */
  private readonly loners = new Set<Child>();
  private nextId = 0;

  private readonly idleMs: number;
  private readonly timeoutMs: number;
  private readonly entry: string;
  /** The CPU each lane's process is held to, when lanes are pinned (decoder-lanes.ts). */
  private laneCpus: readonly number[] | undefined;
  /** A pinned lane's process ended before it was ready (taskset refused, say): lanes start unpinned from then on. */
  private pinningFailed = false;

  /**
   * `entry`: the process's module (tests wrap it to play a hostile file). `lanes`: how the work is
   * spread over processes (decoder-lanes.ts); by default one process for everything.
   */
  constructor({ idleMs = DECODER_IDLE_MS, timeoutMs = DECODE_TIMEOUT_MS, entry = defaultEntry, lanes = ONE_LANE }: { idleMs?: number; timeoutMs?: number; entry?: string; lanes?: DecoderLanes } = {}) {
    this.idleMs = idleMs;
    this.timeoutMs = timeoutMs;
    this.entry = entry;
    this.lanes = Array.from({ length: lanes.cpus?.length ?? 1 }, () => undefined);
    this.laneCpus = lanes.cpus;
  }

  /** The first lane's process's pid (tests and the bench watch it), if it runs. */
  get pid(): number | undefined {
    return this.lanes[0]?.process.pid;
  }

  /** Every running decoder process's pid: the lanes' and those trying a picture again alone. */
  get pids(): number[] {
    return [...this.lanes, ...this.loners].flatMap((child) => (child?.process.pid === undefined ? [] : [child.process.pid]));
  }

  /**
   * Spreads work over `lanes` from now on (the server's start: decoderLanes(IMAGE_WORKERS)).
   * Processes of an earlier layout finish what they hold and end.
   */
  useLanes(lanes: DecoderLanes): void {
    const cpus = lanes.cpus;
    if (String(cpus) === String(this.laneCpus)) return;
    for (const child of this.lanes) {
      if (!child) continue;
      clearTimeout(child.idleTimer);
      delete child.lane;
      if (child.pending.size === 0) child.process.disconnect();
      else this.loners.add(child);
    }
    this.lanes = Array.from({ length: cpus?.length ?? 1 }, () => undefined);
    this.laneCpus = cpus;
  }

  async sniff(head: Buffer): Promise<SniffedType | { refused: string }> {
    // An empty file is refused here: no process is started for it.
    if (head.length === 0) return sniffImageType(head);
    const reply = await this.request({ kind: 'sniff', head }, 0);
    if (reply.kind !== 'sniff') throw new Error('the decoder process answered another request');
    return reply.type;
  }

  async probe(file: string, decoder: Decoder): Promise<ProbedImage> {
    const reply = await this.request({ kind: 'probe', file, decoder }, 0);
    if (reply.kind !== 'probe') throw new Error('the decoder process answered another request');
    return { width: reply.width, height: reply.height, processingBytes: reply.processingBytes };
  }

  async exif(file: string): Promise<ExifFacts> {
    const reply = await this.request({ kind: 'exif', file }, 0);
    if (reply.kind !== 'exif') throw new Error('the decoder process answered another request');
    return reply.facts;
  }

  async exifOfHead(head: Buffer): Promise<ExifFacts> {
    const reply = await this.request({ kind: 'exif-head', head }, 0);
    if (reply.kind !== 'exif') throw new Error('the decoder process answered another request');
    return reply.facts;
  }

  async derive(file: string, decoder: Decoder, peakBytes = 0): Promise<DerivedImages> {
    const reply = await this.request({ kind: 'derive', file, decoder }, peakBytes);
    if (reply.kind !== 'derive') throw new Error('the decoder process answered another request');
    return { display: image(reply.display), thumbnail: image(reply.thumbnail), placeholder: reply.placeholder };
  }

  async avatar(file: string, decoder: Decoder, size: number, peakBytes = 0): Promise<Buffer> {
    const reply = await this.request({ kind: 'avatar', file, decoder, size }, peakBytes);
    if (reply.kind !== 'avatar') throw new Error('the decoder process answered another request');
    return bytes(reply.data);
  }

  afterStored(): void {
    afterImageWork({ minIntervalMs: COLLECTION_INTERVAL_MS, youngOnly: true });
  }

  /** Ends the process; requests still in it fail. */
  async close(): Promise<void> {
    const children = [...this.lanes, ...this.loners].filter((child) => child !== undefined);
    this.lanes.fill(undefined);
    this.loners.clear();
    await Promise.all(children.map((child) => this.end(child)));
  }

  private async end(child: Child): Promise<void> {
    clearTimeout(child.idleTimer);
    const abandoned = [...child.pending.values()];
    child.pending.clear();
    for (const pending of abandoned) {
      clearTimeout(pending.timer);
      pending.reject(new Error('the decoder process was closed'));
    }
    const exited = new Promise((resolve) => child.process.once('exit', resolve));
    if (child.process.exitCode === null && child.process.signalCode === null) {
      child.process.kill('SIGKILL');
      await exited;
    }
  }

  /** Ends a lane's process if it has nothing in flight; the lane's next request starts a new one. */
  private retireIdle(lane: number): void {
    const child = this.lanes[lane];
    if (!child || child.pending.size > 0) return;
    clearTimeout(child.idleTimer);
    this.lanes[lane] = undefined;
    child.process.disconnect();
  }

  private request(job: Job, peakBytes: number): Promise<DecodeReply & { ok: true }> {
    // Every idle lane goes, not only the one it runs in: what the others hold would add to its peak.
    if (peakBytes >= FRESH_PROCESS_BYTES) this.lanes.forEach((_, index) => this.retireIdle(index));
    const lane = pickLane(this.lanes, isHeavy(job));
    return new Promise((resolve, reject) => this.send({ job, lane, loneDeaths: 0, alone: false, resolve, reject }));
  }

  private send(pending: Pending): void {
    let child: Child;
    if (pending.alone) {
      child = this.start();
      this.loners.add(child);
    } else {
      child = this.lanes[pending.lane] ??= this.start(pending.lane);
      clearTimeout(child.idleTimer);
    }
    const id = (this.nextId += 1);
    child.pending.set(id, pending);
    if (isHeavy(pending.job)) child.heavy += 1;
    if (child.ready) this.startClock(child, pending);
    // While work is under way the channel keeps the server's event loop alive (a shutdown waits for it).
    child.process.channel?.ref();
    child.process.send({ id, ...pending.job } as DecodeRequest);
  }

  private startClock(child: Child, pending: Pending): void {
    pending.timer = setTimeout(() => {
      pending.timedOut = true;
      child.process.kill('SIGKILL');
    }, this.timeoutMs);
  }

  /** A lane's process (held to its CPU when lanes are pinned), or without `lane` one for a picture tried again alone. */
  private start(lane?: number): Child {
    // --expose-gc: the process frees each photo's display pixels as soon as it is done (decoder-child.ts).
    const nodeArgs = ['--expose-gc', ...(fromSource ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [])];
    const cpu = lane === undefined || this.pinningFailed ? undefined : this.laneCpus?.[lane];
    const child: Child = {
      process: fork(this.entry, [], {
        serialization: 'advanced',
        env: decoderEnvironment(),
        ...(cpu === undefined ? { execArgv: nodeArgs } : pinnedTo(cpu, nodeArgs)),
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
      pending: new Map(),
      ready: false,
      ...(lane === undefined ? {} : { lane }),
      heavy: 0,
      pinned: cpu !== undefined,
    };
    // At a background priority from its first instruction, not only once its modules are loaded.
    lowerChildProcess(child.process.pid);
    child.process.unref();
    child.process.on('message', (reply: DecodeReply | DecoderReady) => {
      if (!('ready' in reply)) return this.settle(child, reply);
      child.ready = true;
      for (const pending of child.pending.values()) this.startClock(child, pending);
    });
    child.process.on('exit', (code, signal) => this.lost(child, signal ?? `exit code ${code}`));
    child.process.on('error', (error) => this.lost(child, error.message));
    return child;
  }

  private settle(child: Child, reply: DecodeReply): void {
    const pending = child.pending.get(reply.id);
    child.pending.delete(reply.id);
    if (pending && isHeavy(pending.job)) child.heavy -= 1;
    if (child.pending.size === 0) this.rest(child);
    if (!pending) return;
    clearTimeout(pending.timer);
    if (reply.ok) pending.resolve(reply);
    else if (reply.tooManyPixels) pending.reject(new TooManyPixelsError(reply.message));
    else if (reply.unreadable) pending.reject(new UnreadableImageError(reply.message));
    else pending.reject(new Error(reply.message));
  }

  /**
   * The process ended with work in it. A picture that was alone in it is blamed; every picture is
   * tried again in a process of its own (so one that crashes cannot take another with it), until it
   * has been blamed LONE_DEATHS times.
   */
  private lost(child: Child, how: string): void {
    clearTimeout(child.idleTimer);
    // Held to a CPU that cannot be held to, it never ran: no picture in it is to blame.
    const neverRan = child.pinned && !child.ready;
    if (neverRan && !this.pinningFailed) {
      this.pinningFailed = true;
      console.error(JSON.stringify({ level: 40, msg: 'a decoder process held to one CPU did not start; decoder processes run unpinned from now on', how }));
    }
    if (child.lane !== undefined && this.lanes[child.lane] === child) this.lanes[child.lane] = undefined;
    this.loners.delete(child);
    const orphans = [...child.pending.values()];
    child.pending.clear();
    for (const pending of orphans) {
      clearTimeout(pending.timer);
      if (orphans.length === 1 && !neverRan) pending.loneDeaths += 1;
      if (pending.timedOut) {
        pending.reject(new UnreadableImageError(`The image could not be decoded: it took longer than ${this.timeoutMs / 1000} s.`));
      } else if (pending.loneDeaths < LONE_DEATHS) {
        pending.alone = true;
        this.send(pending);
      } else pending.reject(new UnreadableImageError(`The image could not be decoded: its decoder stopped (${how}).`));
    }
  }

  /** Nothing in flight: the channel no longer keeps the server up, and the process ends if no work comes. */
  private rest(child: Child): void {
    child.process.channel?.unref();
    if (this.loners.delete(child)) {
      child.process.disconnect();
      return;
    }
    const lane = child.lane;
    if (lane === undefined || this.lanes[lane] !== child) return;
    clearTimeout(child.idleTimer);
    child.idleTimer = setTimeout(() => {
      if (this.lanes[lane] !== child || child.pending.size > 0) return;
      this.lanes[lane] = undefined;
      child.process.disconnect();
    }, this.idleMs);
    child.idleTimer.unref();
  }
}

function image(encoded: EncodedImage): DerivedImages['display'] {
  return { data: bytes(encoded.data), width: encoded.width, height: encoded.height };
}

/** The structured clone arrives as a Uint8Array; a Buffer over the same memory, not a copy. */
function bytes(data: Uint8Array): Buffer {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * Decodes in the server's own process (`IMAGE_DECODER=inline`): what the bench compares against.
 * libvips starts its worker threads when first needed and keeps them; they are set to a background
 * priority around each decode (background-priority.ts), as the decoder process sets all of itself.
 */
export const inlineDecoder: ImageDecoder = {
  sniff: (head) => sniffImageType(head),
  probe: (file, decoder) => probeImage(file, decoder),
  exif: (file) => readExif(file),
  exifOfHead: (head) => readExifFromBytes(head),
  derive: (file, decoder) => inBackground(() => deriveImages(file, decoder)),
  avatar: (file, decoder, size) => inBackground(() => deriveAvatar(file, decoder, size)),
  // sharp's output buffers are the server's here: collected as often as once a second.
  afterStored: () => afterImageWork(),
};

async function inBackground<T>(work: () => Promise<T>): Promise<T> {
  lowerImageThreads();
  try {
    return await work();
  } finally {
    lowerImageThreads();
  }
}

/** The server's decoder processes (one set, however many servers a test file builds). */
export const decoderProcess = new DecoderProcess();
