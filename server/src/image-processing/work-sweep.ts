import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { MediaRow } from '../db/schema.js';
import type { MediaRepository } from '../images/media.repository.js';
import { decoderFor, type Decoder } from '../ingest/file-type.js';
import type { Clock } from '../shared/clock.js';
import type { MediaStorage } from '../storage/storage.js';
import { CLAIM_STALE_MS, type Claims, HEARTBEAT_MS } from './claims.js';
import type { MediaClaimsRepository } from './media-claims.repository.js';
import type { Elsewhere, ProcessOutcome } from './media-processor.js';

const SWEEP_BATCH = 50;
/** A resumed row that keeps failing (storage trouble) is retried less and less often, up to this. */
const MAX_RETRY_DELAY_MS = 5 * 60_000;

/**
 * MediaProcessor's heartbeat and sweep: every HEARTBEAT_MS this process's claims are kept alive
 * (claims.ts), and work nobody is doing is taken up — pending rows whose process died, processed
 * again from the stored original, and deleting rows whose files are not removed yet. The first
 * sweep runs at start, so what a dead process left is taken up at once (issue 13).
 */
export class WorkSweep {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private readonly failures = new Map<number, { count: number; until: number }>();

  constructor(
    private readonly deps: {
      claims: Claims;
      mediaClaims: MediaClaimsRepository;
      media: MediaRepository;
      storage: MediaStorage;
      clock: Clock;
      logger: FastifyBaseLogger;
      tempDir: string;
      /** Processes a pending row this process holds from a local copy of its original (not stored again). */
      rerun(row: MediaRow, localFile: string, decoder: Decoder): Promise<ProcessOutcome | Elsewhere>;
      /** Removes a deleting row's files, then the row (this process holds it). */
      removeFiles(row: MediaRow): Promise<void>;
    },
  ) {}

  start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), HEARTBEAT_MS);
    this.timer.unref();
  }

  /** No more beats; a sweep under way is waited for. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** Claims what nobody works on and starts it; the work itself is not awaited (the pool bounds it). */
  async resumeStalled(): Promise<void> {
    const { claims, mediaClaims, logger, clock } = this.deps;
    const rows = await mediaClaims.stalled(claims.terms().staleBefore, await claims.deadOwners(), SWEEP_BATCH);
    const now = clock.now().getTime();
    for (const row of rows) {
      if (claims.isWorkingOn(row.id) || (this.failures.get(row.id)?.until ?? 0) > now) continue;
      void claims
        .claimAndRun(row, () => (row.status === 'deleting' ? this.deps.removeFiles(row) : this.resume(row)))
        .then(
          (taken) => {
            if (taken.claimed) this.failures.delete(row.id);
          },
          (err: unknown) => {
            const count = (this.failures.get(row.id)?.count ?? 0) + 1;
            const delay = Math.min(MAX_RETRY_DELAY_MS, CLAIM_STALE_MS * 2 ** (count - 1));
            this.failures.set(row.id, { count, until: clock.now().getTime() + delay });
            logger.error({ err, mediaId: row.id }, 'resuming an image failed; it will be retried');
          },
        );
    }
  }

  private tick(): void {
    const { logger } = this.deps;
    void this.deps.claims.beat().catch((err: unknown) => logger.warn({ err }, 'the image work heartbeat failed'));
    this.sweeping ??= this.resumeStalled()
      .catch((err: unknown) => logger.warn({ err }, 'looking for stalled image work failed'))
      .finally(() => (this.sweeping = undefined));
  }

  /** Processes a pending row again from its stored original. */
  private async resume(row: MediaRow): Promise<void> {
    const { storage, media, claims, logger, tempDir } = this.deps;
    const original = await storage.get(row.original_key);
    if (!original) {
      // Its upload's process died before the original was stored; that upload was never answered.
      logger.warn({ mediaId: row.id }, 'a pending image lost its original; forgetting it');
      if (await media.discard(row.id, claims.owner)) await this.deps.removeFiles(row);
      return;
    }
    const localFile = path.join(tempDir, `resume-${randomBytes(12).toString('hex')}`);
    try {
      await pipeline(original, createWriteStream(localFile));
      const outcome = await this.deps.rerun(row, localFile, decoderFor(row.mime));
      if (outcome !== 'elsewhere' && outcome.state === 'refused') {
        logger.warn({ mediaId: row.id, reason: outcome.reason }, 'a resumed image could not be read');
      }
    } finally {
      await rm(localFile, { force: true });
    }
  }
}
