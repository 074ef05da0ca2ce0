/**
 * Runs at most `size` tasks at once, and — when tasks say what memory they will take — only as many
 * as fit in `memoryBudget` bytes together; the rest wait in order. Image work is CPU- and memory-heavy,
 * so the pool is what bounds both, however many files arrive at once: two 22 MP JPEGs (about 40 MB
 * each) decode side by side, while a 20 MP AVIF (about 300 MB) or a 12 MP HEIC (about 160 MB) waits
 * until it can run alone, instead of peaking on top of another (issue 14). A task larger than the
 * whole budget still runs, alone; what no decode may take at all is refused earlier (decode-cost.ts).
 */
export class TaskPool {
  private running = 0;
  private reserved = 0;
  private readonly waiting: { cost: number; start: () => void }[] = [];
  private idleWaiters: (() => void)[] = [];

  constructor(
    readonly size: number,
    readonly memoryBudget = Number.POSITIVE_INFINITY,
  ) {}

  /** Runs `task` when a slot is free and `cost` (bytes it will hold at its peak) fits beside the running ones. */
  run<T>(task: () => Promise<T>, cost = 0): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running += 1;
        this.reserved += cost;
        task()
          .then(resolve, reject)
          .finally(() => {
            this.running -= 1;
            this.reserved -= cost;
            this.startWaiting();
            if (this.running === 0 && this.waiting.length === 0) this.notifyIdle();
          });
      };
      this.waiting.push({ cost, start });
      this.startWaiting();
    });
  }

  /** Starts waiting tasks in order while the first one fits (strictly in order: a large one is never passed over for ever). */
  private startWaiting(): void {
    for (let next = this.waiting[0]; next && this.fits(next.cost); next = this.waiting[0]) {
      this.waiting.shift();
      next.start();
    }
  }

  private fits(cost: number): boolean {
    if (this.running >= this.size) return false;
    return this.running === 0 || this.reserved + cost <= this.memoryBudget;
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
