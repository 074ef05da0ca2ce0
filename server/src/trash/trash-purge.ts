import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { type PeriodicJob, startPeriodicJob } from '../shared/periodic-job.js';
import type { TrashService } from './trash.service.js';

export const PURGE_INTERVAL_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

/**
 * Deletes for good what has been in the Trash longer than TRASH_DAYS: at start, then every 10 minutes.
 * Several processes may run it at once (TrashService.purge).
 */
export function startTrashPurge(deps: { trash: TrashService; clock: Clock; trashDays: number; logger: FastifyBaseLogger }): PeriodicJob<number> {
  return startPeriodicJob(
    async () => {
      const n = await deps.trash.purge(new Date(deps.clock.now().getTime() - deps.trashDays * DAY_MS).toISOString());
      if (n > 0) deps.logger.info({ deleted: n }, 'emptied images older than TRASH_DAYS from the Trash');
      return n;
    },
    { everyMs: PURGE_INTERVAL_MS, logger: deps.logger, failed: 'purging the Trash failed; will retry' },
  );
}
