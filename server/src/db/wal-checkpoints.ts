import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpoint thread copies the write-ahead log into the database file. */
export const CHECKPOINT_EVERY_MS = 500;
/** How often the server looks whether the log has grown (one stat of the -wal file). */
export const ACTIVITY_CHECK_MS = 1000;
/** The thread ends after this long without a write: an idle server holds no thread and no second connection. */
export const THREAD_IDLE_MS = 30_000;
/**
 * The server's own connection still checkpoints once the log reaches this many pages (~40 MB): a
 * safety net, should the thread fall behind or fail. SQLite's default is 1,000 pages.
 */
export const SAFETY_NET_PAGES = 10_000;

/**
 * The checkpoint thread: its own connection to the same file, copying the log into the database
 * with PASSIVE checkpoints, which never wait for, nor hold up, the server's readers and writer.
 * CommonJS run by `eval`, so the same text runs under the test runner's TypeScript sources.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
// Waiting here holds up no one: the server's connection never waits for this thread.
db.pragma('busy_timeout = 1000');
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage(String(error && error.message)); }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.once('message', () => { clearInterval(timer); checkpoint(); db.close(); parentPort.close(); });
`;

/**
 * Moves SQLite's checkpoints off the event loop. In WAL mode a commit appends to the log, and the
 * commit that takes the log past 1,000 pages copies all of it into the database file and syncs both
 * files, synchronously, in the request that happened to commit: under issue 13's crowd (hundreds of
 * likes and tags a second) that was a checkpoint every few seconds, each an event-loop stall of
 * 5–50 ms (here, most of it fsync) that every person in flight waited out. A worker thread with its
 * own connection does them instead, every CHECKPOINT_EVERY_MS while the log grows; it starts with
 * the first write it sees and ends once writes stop (decision 0031).
 */
export class WalCheckpoints {
  private worker: Worker | undefined;
  private monitor: NodeJS.Timeout | undefined;
  /** The log's size and time as last seen; undefined before the first look (what start-up wrote is no reason to start). */
  private lastSeen: string | undefined;
  private lastWriteAt = 0;
  private closed = false;
  /** A look under way: the next tick skips rather than run beside it (ending a thread may take a while). */
  private looking = false;
  /** No thread is started again before this time after one failed (a file it cannot open would otherwise fail every second). */
  private retryAfter = 0;

  constructor(
    private readonly file: string,
    private readonly onError: (message: string) => void,
    private readonly clock: () => number = Date.now,
  ) {}

  start(): void {
    this.monitor = setInterval(() => {
      if (this.looking) return;
      this.looking = true;
      void this.look().finally(() => (this.looking = false));
    }, ACTIVITY_CHECK_MS);
    this.monitor.unref();
  }

  /** Whether the checkpoint thread runs now (tests). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Stops looking and ends the thread after one last checkpoint; before the server's connection closes. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.monitor);
    await this.endThread();
  }

  private async look(): Promise<void> {
    const log = await stat(`${this.file}-wal`).catch(() => undefined);
    if (this.closed) return;
    const seen = log ? `${log.size}:${log.mtimeMs}` : '';
    const now = this.clock();
    if (this.lastSeen === undefined) this.lastSeen = seen;
    else if (seen !== this.lastSeen) {
      this.lastSeen = seen;
      this.lastWriteAt = now;
      if (now >= this.retryAfter) this.worker ??= this.startThread();
    } else if (this.worker && now - this.lastWriteAt > THREAD_IDLE_MS) {
      await this.endThread();
    }
  }

  private startThread(): Worker {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { driver, file: this.file, everyMs: CHECKPOINT_EVERY_MS } });
    worker.unref();
    worker.on('message', (message: string) => this.onError(message));
    worker.on('error', (error) => {
      this.retryAfter = this.clock() + THREAD_IDLE_MS;
      this.onError(error.message);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
    });
    return worker;
  }

  private async endThread(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('stop');
    await exited;
  }
}
