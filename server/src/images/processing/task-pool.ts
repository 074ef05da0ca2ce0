import { lowerImageThreads } from './background-priority.js';

/**
 * Runs at most `size` tasks at once; the rest wait in order. Image work is CPU- and memory-heavy,
 * so the pool is what bounds both, however many files arrive at once. Before and after each task
 * the image threads are set to a background priority (background-priority.ts): libvips starts its
 * workers when first needed and keeps them, so after the first pictures all of them are lowered.
 */
export class TaskPool {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private idleWaiters: (() => void)[] = [];

  constructor(readonly size: number) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running += 1;
        lowerImageThreads();
        task()
          .then(resolve, reject)
          .finally(() => {
            lowerImageThreads();
            this.running -= 1;
            this.waiting.shift()?.();
            if (this.running === 0 && this.waiting.length === 0) this.notifyIdle();
          });
      };
      if (this.running < this.size) start();
      else this.waiting.push(start);
    });
  }

  get pending(): number {
    return this.running + this.waiting.length;
  }

  /** Resolves once nothing runs or waits (used at shutdown). */
  onIdle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
