/**
 * Concurrent callers asking for the same key share one running promise: after a library change,
 * a burst of requests rebuilds a cache entry once, not once per request. The key is forgotten when
 * the promise settles, so the next caller starts afresh (a failure is not kept).
 */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, start: () => Promise<T>): Promise<T> {
    let running = this.running.get(key);
    if (!running) {
      running = start();
      this.running.set(key, running);
      running.finally(() => this.running.delete(key)).catch(() => undefined);
    }
    return running;
  }
}
