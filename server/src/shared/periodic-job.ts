import type { FastifyBaseLogger } from 'fastify';

/** Background work run at start and then on an interval (startPeriodicJob). */
export interface PeriodicJob<T> {
  /** Runs the work now, or joins the run under way. */
  runOnce(): Promise<T>;
  /** Stops the timer and waits for a run under way (so the database is not closed under it). */
  stop(): Promise<void>;
}

/**
 * Runs `work` at once, then every `everyMs`. A run still under way when the next is due (or asked
 * for) is joined, not doubled; a failed run is logged as `failed` and tried again at the next tick;
 * the timer does not keep the process alive. The Trash purge, the resumable-upload sweep and the
 * facts backfill run this way.
 */
export function startPeriodicJob<T>(
  work: () => Promise<T>,
  { everyMs, logger, failed }: { everyMs: number; logger: FastifyBaseLogger; failed: string },
): PeriodicJob<T> {
  let running: Promise<T> | undefined;
  const runOnce = () => {
    running ??= work().finally(() => {
      running = undefined;
    });
    return running;
  };
  const tick = () => void runOnce().catch((err: unknown) => logger.error({ err }, failed));
  const timer = setInterval(tick, everyMs);
  timer.unref();
  tick();
  return {
    runOnce,
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
