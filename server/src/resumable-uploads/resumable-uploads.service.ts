import { rm } from 'node:fs/promises';
import { TUS_METADATA, type UploadOutcome } from '@photo/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthUser } from '../auth/auth-user.js';
import { AppError, badRequest, notFound, tooManyRequests } from '../http/errors.js';
import { cleanFileName, type IngestService } from '../ingest/ingest.service.js';
import { isDeadOnThisHost, newOwnerToken } from '../image-processing/claim-owner.js';
import { CLAIM_STALE_MS } from '../image-processing/claims.js';
import type { Clock } from '../shared/clock.js';
import type { UploadLocksRepository } from './upload-locks.repository.js';
import type { IngestPlaces } from './ingest-places.js';
import type { ClaimTerms, ResumableUploadRow, ResumableUploadsRepository, UploadOutcomeRow } from './resumable-uploads.repository.js';
import type { TusBytes } from './tus-stores.js';

/** Unfinished uploads one person may hold (their bytes are limited too: TUS_MAX_UNFINISHED_MB). */
export const MAX_UNFINISHED_UPLOADS = 1000;
/** How long a done upload's outcome can still be asked for (HEAD, the outcome call). */
export const OUTCOME_KEPT_MS = 7 * 86_400_000;
/** Seconds a client is asked to wait before asking again for the outcome of a file being processed. */
const PROCESSING_RETRY_SECONDS = 2;

export const NOT_STORED_REASON = 'The file could not be stored; please try again.';
export const SHA256_MISMATCH_REASON = 'The file arrived different from what was sent (its SHA-256 does not match); please upload it again.';
export const BYTES_LOST_REASON = 'The upload was interrupted before the file was processed; please upload it again.';

const mb = (bytes: number) => Math.round(bytes / 1048576).toLocaleString('en-US');

export interface ResumableUploadsDeps {
  uploads: ResumableUploadsRepository;
  /** tus's locks across processes (upload-locker.ts): the sweep forgets those whose holder died. */
  locks: Pick<UploadLocksRepository, 'forgetExpired'>;
  bytes: TusBytes;
  ingest: IngestService;
  places: IngestPlaces;
  userById: (id: number) => Promise<AuthUser | undefined>;
  clock: Clock;
  logger: FastifyBaseLogger;
  limits: { maxFileBytes: number; maxUnfinishedBytes: number; expiryMs: number };
}

/**
 * The rules of resumable uploads (decision 0010): whose an upload is, what a person may start, and
 * how a finished one is taken to its outcome — by the same ingest as a multipart file — exactly once,
 * whichever process got the last byte, survived a crash, or is asked for the outcome.
 */
export class ResumableUploadsService {
  /** Names this process in `claimed_by` (same format as media claims, so a dead owner is recognised). */
  readonly owner = newOwnerToken();
  /** Uploads this process is finishing now, by id. */
  private readonly working = new Map<string, Promise<UploadOutcome | undefined>>();

  constructor(private readonly deps: ResumableUploadsDeps) {}

  /** Before tus creates anything: the size limit and the person's unfinished uploads. */
  async mayCreate(user: AuthUser, uploadLength: number): Promise<void> {
    const { uploads, limits } = this.deps;
    if (uploadLength > limits.maxFileBytes) throw new AppError(413, `The file is larger than the ${mb(limits.maxFileBytes)} MB limit.`);
    const unfinished = await uploads.unfinishedOf(user.id);
    if (unfinished.count >= MAX_UNFINISHED_UPLOADS) {
      throw tooManyRequests(`You have ${unfinished.count.toLocaleString('en-US')} unfinished uploads; finish or delete some before starting more.`, 60);
    }
    if (unfinished.bytes + uploadLength > limits.maxUnfinishedBytes) {
      throw tooManyRequests(`Your unfinished uploads would hold more than ${mb(limits.maxUnfinishedBytes)} MB; finish or delete some before starting more.`, 60);
    }
  }

  /** Records a new upload of `user` (before its first byte is stored): from now on it is theirs. */
  async created(user: AuthUser, id: string, size: number, metadata: Record<string, string | null> | undefined): Promise<void> {
    const value = (key: string) => metadata?.[key]?.trim() || null;
    const declared = value(TUS_METADATA.sha256)?.toLowerCase() ?? null;
    if (declared !== null && !/^[0-9a-f]{64}$/.test(declared)) throw badRequest('The sha256 metadata must be a SHA-256 in hex (64 digits).');
    const now = this.deps.clock.now();
    await this.deps.uploads.insert({
      id,
      user_id: user.id,
      file_name: cleanFileName(value(TUS_METADATA.fileName) ?? 'image'),
      file_type: value(TUS_METADATA.fileType)?.slice(0, 200) ?? null,
      last_modified: value(TUS_METADATA.lastModified)?.slice(0, 32) ?? null,
      declared_sha256: declared,
      size,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + this.deps.limits.expiryMs).toISOString(),
    });
  }

  /** The person's own upload; anyone else's, or none, is a 404 (never 403: nothing to probe). */
  async ownedBy(user: AuthUser, id: string): Promise<ResumableUploadRow> {
    const row = /^[0-9a-f]{32}$/.test(id) ? await this.deps.uploads.find(id) : undefined;
    if (!row || row.user_id !== user.id) throw notFound('There is no such upload of yours.');
    return row;
  }

  /** POST /api/uploads/check: which of these contents the person already has (their own images only). */
  async known(user: AuthUser, files: readonly { sha256: string; size: number }[]): Promise<{ known: { sha256: string; imageId: string }[] }> {
    const found = new Map<string, string>();
    for (const row of await this.deps.uploads.knownContents(user.id, files)) {
      if (!found.has(row.sha256)) found.set(row.sha256, String(row.imageId));
    }
    return { known: [...found].map(([sha256, imageId]) => ({ sha256, imageId })) };
  }

  /** GET /api/uploads/:id/outcome. */
  async outcome(user: AuthUser, id: string): Promise<UploadOutcome> {
    const row = await this.ownedBy(user, id);
    if (row.status === 'done') return outcomeOf(row);
    if (row.status === 'receiving') {
      const offset = (await this.deps.bytes.offset(id)) ?? 0;
      if (offset < row.size) {
        throw new AppError(409, `The upload is not complete: ${offset.toLocaleString('en-US')} of ${row.size.toLocaleString('en-US')} bytes received; resume it.`);
      }
    }
    // Every byte is in: finished here if nobody is on it (the process that got the last byte died).
    this.finishInBackground(id);
    throw new AppError(409, 'The file is being processed; ask again in a moment.', { 'retry-after': String(PROCESSING_RETRY_SECONDS) });
  }

  /** The outcome of a done upload, for HEAD and the final PATCH answered from the row. */
  outcomeOf(row: ResumableUploadRow): UploadOutcome | undefined {
    return row.status === 'done' ? outcomeOf(row) : undefined;
  }

  /** A terminated upload (or a done one's record): its row and whatever bytes are left go. */
  async forget(row: ResumableUploadRow): Promise<void> {
    await this.deps.bytes.discard(row.id);
    await this.deps.uploads.delete(row.id, row.status);
  }

  /** After the final answer went out: the bytes of an upload this process finished are no longer needed. */
  async discardFinished(id: string): Promise<void> {
    const row = await this.deps.uploads.find(id);
    if (row?.status === 'done') await this.deps.bytes.discard(id);
  }

  /**
   * Takes a finished upload to its outcome: hashed, checked against the declared SHA-256, ingested
   * like a multipart file, the outcome stored, the bytes removed (unless `keepBytes`: tus reads the
   * upload once more before it answers, and the caller discards them after). `undefined` when another
   * process is finishing it (or it is gone). Never throws: what goes wrong is logged and left to the sweep.
   */
  finish(id: string, options: { keepBytes?: boolean } = {}): Promise<UploadOutcome | undefined> {
    const running = this.working.get(id);
    if (running) return running;
    const run = this.claimAndFinish(id, options.keepBytes ?? false).catch((err: unknown) => {
      // Stopped by shutdown while waiting for an ingest place: the next start takes it up.
      const level = (err as { name?: unknown } | null)?.name === 'AbortError' ? 'info' : 'error';
      this.deps.logger[level]({ err, upload: id }, 'finishing a resumable upload stopped; it will be taken up again');
      return undefined;
    });
    this.working.set(id, run);
    void run.finally(() => this.working.delete(id));
    return run;
  }

  /** Done or gone uploads past their time, and finished ones a dead process left. Returns how many expired. */
  async sweep(): Promise<number> {
    const { uploads, bytes, clock, logger } = this.deps;
    let removed = 0;
    for (const row of await uploads.expired(clock.now().toISOString(), 500)) {
      try {
        // Every byte arrived but the process died before taking the file up: finished, not thrown away.
        if (row.status === 'receiving' && (await bytes.offset(row.id)) === row.size) {
          if (!this.working.has(row.id)) this.finishInBackground(row.id);
          continue;
        }
        // A done upload's bytes are normally gone already; whatever a crash left goes with its record.
        await bytes.discard(row.id);
        if (await uploads.delete(row.id, row.status)) removed += row.status === 'receiving' ? 1 : 0;
      } catch (err) {
        logger.warn({ err, upload: row.id }, 'removing an expired upload failed; will retry');
      }
    }
    await this.deps.locks.forgetExpired(clock.now().toISOString());
    const terms = this.terms();
    for (const row of await uploads.finishing(100)) {
      const abandoned = row.claimed_at === null || row.claimed_at < terms.staleBefore || isDeadOnThisHost(row.claimed_by);
      if (abandoned && !this.working.has(row.id)) this.finishInBackground(row.id);
    }
    return removed;
  }

  /** The heartbeat of every upload this process is finishing. */
  async beat(): Promise<void> {
    await this.deps.uploads.refreshClaims(this.owner, [...this.working.keys()], this.deps.clock.now().toISOString());
  }

  /** At shutdown: waits for finishes under way, then lets anyone take over what is left at once. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.working.values()]);
    await this.deps.uploads.releaseClaims(this.owner);
  }

  private finishInBackground(id: string): void {
    void this.finish(id);
  }

  private terms(): ClaimTerms {
    const now = this.deps.clock.now();
    return { owner: this.owner, now: now.toISOString(), staleBefore: new Date(now.getTime() - CLAIM_STALE_MS).toISOString() };
  }

  private async claimAndFinish(id: string, keepBytes: boolean): Promise<UploadOutcome | undefined> {
    const { uploads, bytes, places, clock } = this.deps;
    const row = await uploads.find(id);
    if (!row) return undefined;
    if (row.status === 'done') return outcomeOf(row);
    const dead = isDeadOnThisHost(row.claimed_by) ? (row.claimed_by ?? undefined) : undefined;
    if (!(await uploads.claim(id, this.terms(), dead))) return undefined;
    const place = await places.take(row.user_id);
    let outcome: UploadOutcomeRow;
    try {
      outcome = await this.ingest(row);
    } finally {
      place.release();
    }
    const now = clock.now();
    await uploads.finish(id, this.owner, outcome, now.toISOString(), new Date(now.getTime() + OUTCOME_KEPT_MS).toISOString());
    if (!keepBytes) await bytes.discard(id).catch((err: unknown) => this.deps.logger.warn({ err, upload: id }, 'removing a finished upload\'s bytes failed'));
    return { fileName: row.file_name, status: outcome.status, ...(outcome.reason ? { reason: outcome.reason } : {}), ...(outcome.imageId ? { imageId: String(outcome.imageId) } : {}) };
  }

  /** The one ingest path (IngestService), as a multipart file takes it. */
  private async ingest(row: ResumableUploadRow): Promise<UploadOutcomeRow> {
    const { uploads, bytes, ingest, logger } = this.deps;
    const user = await this.deps.userById(row.user_id);
    if (!user) return { status: 'refused', reason: BYTES_LOST_REASON };
    const received = await bytes.receive(row.id, row.size);
    if (!received) return this.afterLostBytes(user, row);
    await uploads.recordContentHash(row.id, this.owner, received.sha256);
    if (row.declared_sha256 !== null && row.declared_sha256 !== received.sha256) {
      await rm(received.tempPath, { force: true });
      return { status: 'refused', reason: SHA256_MISMATCH_REASON };
    }
    try {
      const outcome = await ingest.ingest(user, row.file_name, received, { lastModified: row.last_modified ?? undefined });
      return { status: outcome.status, reason: outcome.reason, imageId: outcome.imageId === undefined ? undefined : Number(outcome.imageId) };
    } catch (err) {
      // Storage or database trouble: refused with "try again", exactly as a multipart file is.
      logger.error({ err, upload: row.id }, 'a resumable upload could not be stored');
      await rm(received.tempPath, { force: true });
      return { status: 'refused', reason: NOT_STORED_REASON };
    }
  }

  /** A process died after the ingest took the bytes: its image exists (the content is known), or the file is lost. */
  private async afterLostBytes(user: AuthUser, row: ResumableUploadRow): Promise<UploadOutcomeRow> {
    if (row.content_sha256) {
      const [known] = await this.deps.uploads.knownContents(user.id, [{ sha256: row.content_sha256, size: row.size }]);
      if (known) return { status: 'kept', imageId: known.imageId };
    }
    return { status: 'refused', reason: BYTES_LOST_REASON };
  }
}

function outcomeOf(row: ResumableUploadRow): UploadOutcome {
  return {
    fileName: row.file_name,
    status: row.outcome_status ?? 'refused',
    ...(row.outcome_reason ? { reason: row.outcome_reason } : {}),
    ...(row.image_id !== null ? { imageId: String(row.image_id) } : {}),
  };
}
