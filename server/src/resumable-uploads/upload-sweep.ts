import type { FastifyBaseLogger } from 'fastify';
import { HEARTBEAT_MS } from '../image-processing/claims.js';
import { type PeriodicJob, startPeriodicJob } from '../shared/periodic-job.js';
import type { ResumableUploadsService } from './resumable-uploads.service.js';

/** Often enough that an upload is gone soon after it expires, at most every 10 minutes. */
export function sweepIntervalMs(expiryMs: number): number {
  return Math.min(10 * 60_000, Math.max(1000, Math.round(expiryMs / 4)));
}

/**
 * Removes abandoned uploads (unfinished past TUS_EXPIRY_HOURS: their bytes and rows) and forgets old
 * outcomes, and finishes uploads whose last byte arrived at a process that then died: at start, then
 * on an interval. Meanwhile the uploads this process is finishing get their heartbeat. Several
 * processes may sweep at once (every step is conditional on the row's state).
 */
export function startUploadSweep(deps: { uploads: ResumableUploadsService; intervalMs: number; logger: FastifyBaseLogger }): PeriodicJob<number> {
  const sweep = startPeriodicJob(
    async () => {
      const n = await deps.uploads.sweep();
      if (n > 0) deps.logger.info({ removed: n }, 'removed expired unfinished uploads');
      return n;
    },
    { everyMs: deps.intervalMs, logger: deps.logger, failed: 'sweeping resumable uploads failed; will retry' },
  );
  const heartbeat = setInterval(() => void deps.uploads.beat().catch((err: unknown) => deps.logger.warn({ err }, 'upload heartbeat failed')), HEARTBEAT_MS);
  heartbeat.unref();
  return {
    runOnce: sweep.runOnce,
    /** Stops both timers and waits for a sweep under way. */
    stop: async () => {
      clearInterval(heartbeat);
      await sweep.stop();
    },
  };
}
