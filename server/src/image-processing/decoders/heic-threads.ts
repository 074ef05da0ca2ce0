import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type DecodedRaw, HeicError } from './heic.js';

type Reply =
  | { id: number; ok: true; data: Uint8Array; width: number; height: number; channels: 3 | 4 }
  | { id: number; ok: false; heic: boolean; message: string };

interface Thread {
  worker: Worker;
  pending: Map<number, { resolve(value: DecodedRaw): void; reject(error: Error): void }>;
  /** Ends the thread once it has been idle for `idleMs`. */
  idleTimer?: NodeJS.Timeout;
}

/**
 * How long an idle decoder thread is kept. Its memory (the WASM instances of past decodes, tens to
 * hundreds of MB) goes back to the system only when the thread ends; starting one again costs
 * ~100–300 ms. A burst of HEIC uploads reuses the thread (the image pool starts the next decode
 * within milliseconds), while a thread left idle is gone before the next heavy decode — an AVIF or
 * a large JPEG — reaches its peak, so their memory does not add up (issue 14: it did for 10 s).
 */
export const HEIC_THREAD_IDLE_MS = 250;

// Under the test runner this module is TypeScript source; the worker then loads through tsx too.
const fromSource = import.meta.url.endsWith('.ts');
const entry = new URL(fromSource ? './heic-thread.ts' : './heic-thread.js', import.meta.url);

/**
 * HEIC decoding on worker threads, so the event loop keeps answering requests meanwhile. Threads
 * are started on first use, reused, never more than the image pool's size (which bounds how many
 * decodes run at once anyway), and ended after `idleMs` without work, which gives their memory back.
 */
export class HeicThreads {
  private readonly idle: Thread[] = [];
  private readonly all = new Set<Thread>();
  private nextId = 0;

  constructor(private readonly idleMs = HEIC_THREAD_IDLE_MS) {}

  /** Threads running now (idle ones included). */
  get threadCount(): number {
    return this.all.size;
  }

  async decode(file: Buffer): Promise<DecodedRaw> {
    const thread = this.idle.pop() ?? this.start();
    clearTimeout(thread.idleTimer);
    try {
      return await new Promise<DecodedRaw>((resolve, reject) => {
        const id = (this.nextId += 1);
        thread.pending.set(id, { resolve, reject });
        thread.worker.postMessage({ id, file });
      });
    } finally {
      if (this.all.has(thread)) this.rest(thread);
    }
  }

  async close(): Promise<void> {
    const threads = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    for (const thread of threads) clearTimeout(thread.idleTimer);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private rest(thread: Thread): void {
    this.idle.push(thread);
    thread.idleTimer = setTimeout(() => {
      const index = this.idle.indexOf(thread);
      if (index < 0) return;
      this.idle.splice(index, 1);
      this.all.delete(thread);
      void thread.worker.terminate();
    }, this.idleMs);
    thread.idleTimer.unref();
  }

  private start(): Thread {
    const worker = fromSource ? sourceWorker() : new Worker(entry);
    worker.unref();
    const thread: Thread = { worker, pending: new Map() };
    this.all.add(thread);
    worker.on('message', (reply: Reply) => {
      const waiter = thread.pending.get(reply.id);
      thread.pending.delete(reply.id);
      if (!waiter) return;
      if (reply.ok) {
        waiter.resolve({ data: Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength), width: reply.width, height: reply.height, channels: reply.channels });
      } else waiter.reject(reply.heic ? new HeicError(reply.message) : new Error(reply.message));
    });
    const fail = (error: Error) => {
      clearTimeout(thread.idleTimer);
      this.all.delete(thread);
      const index = this.idle.indexOf(thread);
      if (index >= 0) this.idle.splice(index, 1);
      for (const waiter of thread.pending.values()) waiter.reject(error);
      thread.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the HEIC decoder thread stopped (exit code ${code})`)));
    return thread;
  }
}

/** A worker running the TypeScript entry through tsx's loader (only under the test runner). */
function sourceWorker(): Worker {
  // The package's ESM entry sits beside the CommonJS one that require.resolve finds.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const bootstrap = `(async () => { (await import(${JSON.stringify(tsx)})).register(); await import(${JSON.stringify(entry.href)}); })()`;
  return new Worker(bootstrap, { eval: true });
}

/** The process's HEIC threads (one set, however many servers a test file builds). */
export const heicThreads = new HeicThreads();
