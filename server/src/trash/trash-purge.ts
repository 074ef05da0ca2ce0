import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../shared/clock.js';
import type { TrashService } from './trash.service.js';

export const PURGE_INTERVAL_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

/**
 * Deletes for good what has been in the Trash longer than TRASH_DAYS: at start, then every 10 minutes.
 * Several processes may run it at once (TrashService.purge).
 */
export function startTrashPurge(deps: { trash: TrashService; clock: Clock; trashDays: number; logger: FastifyBaseLogger }): {
  runOnce: () => Promise<number>;
  /** Stops the timer and waits for a purge under way (so the database is not closed under it). */
  stop: () => Promise<void>;
} {
  let running: Promise<number> | undefined;
  const runOnce = () => {
    running ??= deps.trash
      .purge(new Date(deps.clock.now().getTime() - deps.trashDays * DAY_MS).toISOString())
      .then((n) => {
        if (n > 0) deps.logger.info({ deleted: n }, 'emptied images older than TRASH_DAYS from the Trash');
        return n;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const tick = () => void runOnce().catch((err: unknown) => deps.logger.error({ err }, 'purging the Trash failed; will retry'));
  const timer = setInterval(tick, PURGE_INTERVAL_MS);
  timer.unref();
  tick();
  const stop = async () => {
    clearInterval(timer);
    await running?.catch(() => undefined);
  };
  return { runOnce, stop };
}
