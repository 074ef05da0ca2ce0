import { MAX_CHECK_FILES } from '@photo/contract';
import { isApiError } from '@/lib/api-client';
import { knownContents, type Content } from './check-uploads';
import { sha256Of } from './hash-file';
import { sendFile, type Transfer, type TransferEvents } from './send-file';
import { TransferRate } from './transfer-rate';
import { discardUploadsOf } from './unfinished-uploads';
import type { FileOutcome } from './upload-outcome';

/**
 * Where one file is: waiting to be read, being read for its hash, waiting its turn, on its way (or
 * held: paused, waiting to try again, waiting for the network), with the server (its last byte is
 * in), or done.
 */
export type FilePhase = 'waiting' | 'hashing' | 'queued' | 'sending' | 'paused' | 'retrying' | 'offline' | 'processing' | 'done';

export type FileState = {
  phase: FilePhase;
  /** Bytes the server has or is receiving. */
  sent: number;
  /** It continues an upload an earlier page left unfinished. */
  resumed: boolean;
  outcome?: FileOutcome;
};

/** What the queue does with the world: read files, ask the server, send bytes. */
export type QueueDeps = {
  hash: (file: File, signal: AbortSignal) => Promise<string>;
  /** Which of these contents the person already has (at most MAX_CHECK_FILES at a time). */
  findKnown: (files: Content[], signal: AbortSignal) => Promise<ReadonlySet<string>>;
  send: (file: File, sha256: string, events: TransferEvents) => Transfer;
  /** Content found already in the library: forget any unfinished upload of it. */
  forget: (content: Content) => void;
  /** How many files are on their way at once. */
  parallel: number;
  now?: () => number;
};

/** A file with the same content as one that went up: a duplicate once that one is in, else the same fate. */
function twinOutcome(outcome: FileOutcome): FileOutcome {
  return outcome.status === 'kept' ? { status: 'duplicate' } : outcome;
}

/** Files on their way at once: enough to fill a connection with small photos, few enough to finish some early. */
export const PARALLEL_FILES = 3;

/** The real thing, for the person `owner` (their id: unfinished uploads are remembered per person). */
export function networkDeps(owner: string): QueueDeps {
  return {
    hash: sha256Of,
    findKnown: knownContents,
    send: (file, sha256, events) => sendFile(file, { sha256, owner }, events),
    forget: (content) => void discardUploadsOf(content, owner).catch(() => undefined),
    parallel: PARALLEL_FILES,
  };
}

/** `stopped`: the network, the server or the session gave out; the files not done are `failed` (and resumable). */
export type QueueRun = 'finished' | 'stopped';

/** While uploads would sit idle, a check is asked at most this often (the first at once). */
export const CHECK_EVERY_MS = 1000;

export type QueueProgress = { totalBytes: number; sentBytes: number; bytesPerSecond: number };

/**
 * Takes chosen files to their outcome: each is hashed (one at a time: the disk is the limit), the
 * hashes are checked with the server in groups (a file it already has is a duplicate at once, its
 * bytes never sent), and the rest go up as tus uploads, `parallel` at a time. A check is asked as soon
 * as no upload waits its turn, so the first bytes go early and later checks carry many files.
 */
export class UploadQueue {
  readonly states: FileState[];
  private readonly hashes: string[] = [];
  private readonly toCheck: number[] = [];
  private readonly toSend: number[] = [];
  private readonly transfers = new Map<number, Transfer>();
  /** For each content, the file that goes up with it; the files of the same content wait for its outcome. */
  private readonly carrierOf = new Map<string, number>();
  private readonly twinsOf = new Map<number, number[]>();
  private readonly rate = new TransferRate();
  private checking = false;
  private lastCheckAt = -Infinity;
  private checkTimer: ReturnType<typeof setTimeout> | undefined;
  private hashingDone = false;
  private pausedNow = false;
  private ended = false;
  private settle: (run: QueueRun) => void = () => undefined;
  private readonly controller = new AbortController();
  private readonly now: () => number;

  constructor(
    readonly files: readonly File[],
    private readonly deps: QueueDeps,
    private readonly onChange: () => void,
  ) {
    this.states = files.map(() => ({ phase: 'waiting', sent: 0, resumed: false }));
    this.now = deps.now ?? (() => performance.now());
  }

  get paused(): boolean {
    return this.pausedNow;
  }

  /** Runs until every file has its outcome; an abort of `signal` stops it (unfinished uploads stay resumable). */
  run(signal?: AbortSignal): Promise<QueueRun> {
    const result = new Promise<QueueRun>((resolve) => {
      this.settle = resolve;
    });
    signal?.addEventListener('abort', () => this.stop(), { once: true });
    void this.hashAll();
    this.finishIfDone();
    return result;
  }

  pause(): void {
    if (this.pausedNow || this.ended) return;
    this.pausedNow = true;
    for (const [index, transfer] of this.transfers) {
      // A file whose last byte is in is with the server already: nothing to hold.
      if (this.states[index]!.phase === 'processing') continue;
      transfer.pause();
      this.update(index, { phase: 'paused' });
    }
    this.onChange();
  }

  resume(): void {
    if (!this.pausedNow || this.ended) return;
    this.pausedNow = false;
    for (const [index, transfer] of this.transfers) {
      if (this.states[index]!.phase !== 'paused') continue;
      transfer.resume();
      this.update(index, { phase: 'sending' });
    }
    this.pump();
  }

  /** Bytes to send (files found in the library before sending count for nothing), bytes sent, and the recent speed. */
  progress(): QueueProgress {
    let totalBytes = 0;
    let sentBytes = 0;
    this.states.forEach((state, index) => {
      const status = state.outcome?.status;
      if ((status === 'duplicate' || status === 'failed') && state.sent === 0) return; // never sent
      const size = this.files[index]!.size;
      totalBytes += size;
      sentBytes += status && status !== 'failed' ? size : Math.min(state.sent, size);
    });
    return { totalBytes, sentBytes, bytesPerSecond: this.pausedNow ? 0 : this.rate.perSecond(this.now()) };
  }

  private async hashAll(): Promise<void> {
    for (const [index, file] of this.files.entries()) {
      if (this.ended) return;
      this.changed(index, { phase: 'hashing' });
      try {
        this.hashes[index] = await this.deps.hash(file, this.controller.signal);
        this.update(index, { phase: 'queued' });
        this.toCheck.push(index);
      } catch (error) {
        if (this.ended) return;
        console.error(`Error reading ${file.name}:`, error);
        this.done(index, { status: 'failed', reason: 'The file could not be read.' });
      }
      this.pump();
    }
    this.hashingDone = true;
    this.pump();
  }

  /** Starts what may start: transfers up to `parallel` (unless paused), and the next check. */
  private pump(): void {
    if (this.ended) return;
    while (!this.pausedNow && this.transfers.size < this.deps.parallel && this.toSend.length > 0) this.startTransfer(this.toSend.shift()!);
    if (this.checkDue()) void this.check();
    this.onChange();
    this.finishIfDone();
  }

  /**
   * Whether to ask about the hashed files now: when they fill a check, when all are hashed, or when
   * no upload waits its turn (then at most every CHECK_EVERY_MS, so that re-importing files the
   * library has does not ask once per file).
   */
  private checkDue(): boolean {
    if (this.checking || this.toCheck.length === 0) return false;
    if (this.hashingDone || this.toCheck.length >= MAX_CHECK_FILES) return true;
    if (this.toSend.length > 0) return false;
    const wait = this.lastCheckAt + CHECK_EVERY_MS - this.now();
    if (wait <= 0) return true;
    this.checkTimer ??= setTimeout(() => {
      this.checkTimer = undefined;
      this.pump();
    }, wait);
    return false;
  }

  private async check(): Promise<void> {
    const batch = this.toCheck.splice(0, MAX_CHECK_FILES);
    this.checking = true;
    this.lastCheckAt = this.now();
    let known: ReadonlySet<string> = new Set();
    try {
      known = await this.deps.findKnown(batch.map((index) => ({ sha256: this.hashes[index]!, size: this.files[index]!.size })), this.controller.signal);
    } catch (error) {
      if (this.ended) return;
      // The session ended (the api-client has opened sign-in): nothing more can go.
      if (isApiError(error) && (error.status === 401 || error.status === 403)) return this.stop();
      // Otherwise send them all: the server still recognises what it has, only later.
      console.warn('Checking which files are already uploaded failed; sending them all:', error);
    } finally {
      this.checking = false;
    }
    for (const index of batch) {
      const sha256 = this.hashes[index]!;
      const carrier = this.carrierOf.get(sha256);
      if (known.has(sha256)) {
        this.deps.forget({ sha256, size: this.files[index]!.size });
        this.done(index, { status: 'duplicate' });
      } else if (carrier === undefined) {
        this.carrierOf.set(sha256, index);
        this.toSend.push(index);
      } else {
        // The same content twice in one selection goes up once (copies in two folders are common).
        const outcome = this.states[carrier]!.outcome;
        if (outcome) this.done(index, twinOutcome(outcome));
        else this.twinsOf.set(carrier, [...(this.twinsOf.get(carrier) ?? []), index]);
      }
    }
    this.pump();
  }

  private startTransfer(index: number): void {
    const file = this.files[index]!;
    this.update(index, { phase: 'sending' });
    const transfer = this.deps.send(file, this.hashes[index]!, {
      onProgress: (bytes) => this.sentTo(index, bytes),
      onOffset: (bytes) => this.update(index, { sent: bytes }),
      onResumed: () => this.changed(index, { resumed: true }),
      onWaiting: (why) => this.changed(index, { phase: why }),
    });
    this.transfers.set(index, transfer);
    transfer.done.then(
      (outcome) => {
        this.transfers.delete(index);
        this.done(index, outcome);
        this.pump();
      },
      (error: unknown) => {
        this.transfers.delete(index);
        console.error(`Error uploading ${file.name}:`, error);
        this.stop();
      },
    );
  }

  private sentTo(index: number, bytes: number): void {
    const state = this.states[index]!;
    if (this.ended) return;
    // What the server had before (a resumed upload, a retry) is not speed.
    this.rate.add(Math.max(0, bytes - state.sent), this.now());
    const size = this.files[index]!.size;
    this.changed(index, { sent: bytes, phase: bytes >= size ? 'processing' : this.pausedNow ? 'paused' : 'sending' });
  }

  private done(index: number, outcome: FileOutcome): void {
    this.update(index, { phase: 'done', outcome });
    for (const twin of this.twinsOf.get(index) ?? []) this.update(twin, { phase: 'done', outcome: twinOutcome(outcome) });
    this.twinsOf.delete(index);
  }

  /** Ends the run: transfers on their way are held where they are (their uploads stay resumable). */
  private stop(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.checkTimer);
    this.controller.abort();
    for (const transfer of this.transfers.values()) transfer.pause();
    this.states.forEach((state, index) => {
      if (state.phase !== 'done') this.done(index, { status: 'failed' });
    });
    this.onChange();
    this.settle('stopped');
  }

  private finishIfDone(): void {
    if (this.ended || !this.states.every((state) => state.phase === 'done')) return;
    this.ended = true;
    this.settle('finished');
  }

  private changed(index: number, change: Partial<FileState>): void {
    this.update(index, change);
    this.onChange();
  }

  /** States are replaced, never changed in place, so a list row re-renders only when its file changed. */
  private update(index: number, change: Partial<FileState>): void {
    if (this.ended && change.phase !== 'done') return;
    this.states[index] = { ...this.states[index]!, ...change };
  }
}
