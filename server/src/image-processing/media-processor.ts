import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { MediaRow } from '../db/schema.js';
import type { Clock } from '../shared/clock.js';
import { removeAbandonedPartials } from '../storage/local-leftovers.js';
import { LocalStorage } from '../storage/local-storage.js';
import type { MediaStorage } from '../storage/storage.js';
import type { Decoder, SniffedType } from '../ingest/file-type.js';
import type { MediaRepository, NewMedia } from '../images/media.repository.js';
import type { MediaClaimsRepository } from './media-claims.repository.js';
import { Claims } from './claims.js';
import type { ImageDecoder } from '../decoder-process/decoder-process.js';
import { UnreadableImageError } from './image-errors.js';
import type { ProbedImage } from './probe.js';
import type { TaskPool } from './task-pool.js';
import { WorkSweep } from './work-sweep.js';

export type ProcessOutcome =
  | { state: 'ready' }
  | { state: 'refused'; reason: string }
  /** Every image of it was deleted while it was being processed; what was written is removed. */
  | { state: 'deleted' }
  /** While waiting for another's work on it: the media is gone (deleted, or found unreadable). */
  | { state: 'gone' };

/** Another process took the row over while this one worked on it (this one was presumed dead). */
export type Elsewhere = 'elsewhere';

/** How often to look again while another process works on a row this one waits for. */
const WAIT_MS = 200;

export const derivedKeys = (contentHash: string) => ({
  display: `derived/${contentHash}/display.webp`,
  thumbnail: `derived/${contentHash}/thumb.webp`,
});

/** Every object a media may have in storage, whatever state its processing reached. */
function storedKeys(media: Pick<MediaRow, 'content_hash' | 'original_key'>): string[] {
  return [media.original_key, ...Object.values(derivedKeys(media.content_hash))];
}

/**
 * Turns pending media into ready ones — derived images made in the bounded pool, written to
 * storage, then the row marked ready (which makes its images visible) — and removes the files of
 * media that are deleted or cannot be decoded. Rows are claimed (claims.ts) and their files are
 * only ever written or deleted by the process holding the row, so a delete, a re-upload of the same
 * bytes, a crash and the work taken over after it never leave a file missing or orphaned.
 */
export class MediaProcessor {
  readonly claims: Claims;
  private readonly sweep: WorkSweep;

  constructor(
    private readonly deps: {
      storage: MediaStorage;
      media: MediaRepository;
      mediaClaims: MediaClaimsRepository;
      pool: TaskPool;
      decoder: ImageDecoder;
      clock: Clock;
      logger: FastifyBaseLogger;
      tempDir: string;
    },
  ) {
    this.claims = new Claims({ claims: deps.mediaClaims, clock: deps.clock });
    this.sweep = new WorkSweep({
      ...deps,
      claims: this.claims,
      rerun: (row, localFile, decoder) => this.run(row, localFile, decoder, false),
      removeFiles: (row) => this.removeFiles(row),
    });
  }

  /** Takes up what dead processes left at once, then beats and looks again every HEARTBEAT_MS (work-sweep.ts). */
  start(): void {
    const { storage, logger } = this.deps;
    if (storage instanceof LocalStorage) {
      void removeAbandonedPartials(storage.root).catch((err: unknown) => logger.warn({ err }, 'removing half-written files failed'));
    }
    this.sweep.start();
  }

  /** Finishes this process's work, then lets other processes take over at once what it still holds. */
  async stop(): Promise<void> {
    await this.sweep.stop();
    await this.claims.idle();
    await this.claims.release().catch((err: unknown) => this.deps.logger.warn({ err }, 'releasing image work failed'));
  }

  /** What an uploaded file's first bytes say it is, told where pictures are decoded (the server loads no image library). */
  sniff(head: Buffer): Promise<SniffedType | { refused: string }> {
    return this.deps.decoder.sniff(head);
  }

  /** What an uploaded file's header says, read where pictures are decoded (the server loads no image library). */
  probe(localFile: string, decoder: Decoder): Promise<ProbedImage> {
    return this.deps.decoder.probe(localFile, decoder);
  }

  /** A pending row for new content, held by this process; `created: false` when a row for it exists. */
  createPending(media: NewMedia): Promise<{ row: MediaRow; created: boolean }> {
    return this.deps.media.createPending(media, this.claims.owner);
  }

  /**
   * Processes a row this process created (`createPending`) from the uploaded file, storing the
   * original too. `probed`: what the decoder's `probe` read of that file already, so it is not read twice.
   */
  async process(row: MediaRow, localFile: string, decoder: Decoder, probed?: ProbedImage): Promise<ProcessOutcome> {
    const outcome = await this.claims.hold(row.id, () => this.run(row, localFile, decoder, true, probed));
    return outcome === 'elsewhere' ? this.settle(row, localFile, decoder) : outcome;
  }

  /**
   * For an upload linked to an existing row: waits until it is ready or gone. While another process
   * works on it, this waits; when nobody does (its process died, or gave up), this upload's own file
   * is processed in its place — so a re-upload never waits for a timer, nor answers before its
   * image can be seen.
   */
  async settle(row: MediaRow, localFile: string, decoder: Decoder): Promise<ProcessOutcome> {
    for (;;) {
      await this.claims.ongoing(row.id);
      const current = await this.deps.media.findById(row.id);
      if (!current) return { state: 'gone' };
      if (current.status === 'ready') return { state: 'ready' };
      if (current.status === 'deleting') {
        await this.awaitGone(current);
        return { state: 'gone' };
      }
      const taken = await this.claims.claimAndRun(current, () => this.run(current, localFile, decoder, true));
      if (taken.claimed && taken.value !== 'elsewhere') return taken.value;
      if (!taken.claimed) await sleep(WAIT_MS);
    }
  }

  /**
   * Waits until a 'deleting' row is gone (its content may then be stored afresh). When its owner
   * died, finishes the removal itself.
   */
  async awaitGone(row: MediaRow): Promise<void> {
    for (;;) {
      await this.claims.ongoing(row.id);
      const current = await this.deps.media.findById(row.id);
      if (current?.status !== 'deleting') return;
      const taken = await this.claims.claimAndRun(current, () => this.removeFiles(current));
      if (taken.claimed) return;
      await sleep(WAIT_MS);
    }
  }

  /**
   * After a delete committed: removes the files of the media no image uses any more (marked
   * 'deleting'), then their rows. A media still being processed, here or by another live process, is
   * left to that work: it sees the row deleting when it ends and removes what it wrote.
   */
  async removeDeleted(rows: readonly MediaRow[]): Promise<void> {
    await this.claims.claimDeletingAndRun(rows, (taken) => this.removeFiles(...taken)).catch((err: unknown) => {
      // The rows stay 'deleting'; the sweep finishes them once their claims are stale.
      this.deps.logger.error({ err }, 'removing deleted images’ files failed; will retry');
    });
  }

  /**
   * Gives up a row this process created for an upload that failed (storage or database trouble):
   * its images and files go, so nothing pending is left behind for a retry to resurrect.
   */
  async forget(row: MediaRow): Promise<void> {
    await this.claims.hold(row.id, async () => {
      if (await this.deps.media.discard(row.id, this.claims.owner)) await this.removeFiles(row);
    });
  }

  /**
   * The processing proper, on a row this process holds. A file that cannot be decoded is forgotten
   * entirely (rows and stored objects); storage or database trouble is thrown, with the row still
   * pending (the caller forgets it, or the sweep retries it).
   */
  private async run(row: MediaRow, localFile: string, decoder: Decoder, storeOriginal: boolean, probed?: ProbedImage): Promise<ProcessOutcome | Elsewhere> {
    const { storage, pool, media, decoder: imageDecoder } = this.deps;
    const owner = this.claims.owner;
    const keys = derivedKeys(row.content_hash);
    const originalStored = storeOriginal ? storage.putFile(row.original_key, localFile, row.mime) : Promise.resolve();
    // Settled either way before anything is deleted, so a late write cannot recreate a removed object.
    const original = originalStored.then(
      () => undefined,
      (error: unknown) => error,
    );
    let derived;
    try {
      // What the decode will hold at its peak, from the header, so the pool runs heavy decodes alone.
      const { processingBytes } = probed ?? (await imageDecoder.probe(localFile, decoder));
      derived = await pool.run(async () => {
        // Deleted (or taken over) while it waited for its turn: not worth decoding.
        const current = await media.findById(row.id);
        if (current?.status !== 'pending' || current.claimed_by !== owner) return undefined;
        const [images, exif] = await Promise.all([imageDecoder.derive(localFile, decoder, processingBytes), imageDecoder.exif(localFile)]);
        return { images, exif };
      }, processingBytes);
      if (derived) {
        await Promise.all([
          storage.putBuffer(keys.display, derived.images.display.data, 'image/webp'),
          storage.putBuffer(keys.thumbnail, derived.images.thumbnail.data, 'image/webp'),
        ]);
        imageDecoder.afterStored();
      }
    } catch (error) {
      await original;
      if (!(error instanceof UnreadableImageError)) throw error;
      if (await media.discard(row.id, owner)) await this.removeFiles(row);
      else await this.afterLosingRow(row);
      return { state: 'refused', reason: error.message };
    }
    const storeError = await original;
    if (storeError) throw storeError;
    const ready =
      derived &&
      (await media.markReady(row.id, owner, {
        placeholder: derived.images.placeholder,
        exif: derived.exif,
        displayKey: keys.display,
        thumbnailKey: keys.thumbnail,
      }));
    return ready ? { state: 'ready' } : this.afterLosingRow(row);
  }

  /**
   * The row is no longer pending under this process, yet files may have been written for it: it
   * was deleted meanwhile (this process removes them), or taken over by a process that presumed
   * this one dead (whose work it now is).
   */
  private async afterLosingRow(row: MediaRow): Promise<ProcessOutcome | Elsewhere> {
    const current = await this.deps.media.findById(row.id);
    if (current?.status === 'deleting' && current.claimed_by === this.claims.owner) {
      await this.removeFiles(current);
      return { state: 'deleted' };
    }
    if (current && current.status !== 'deleting') return 'elsewhere';
    if (current) await this.awaitGone(current);
    await this.removeOrphans(row);
    return { state: 'deleted' };
  }

  /**
   * Files were written for `row`'s content after its row went (or while another process removed
   * them): they may belong to nobody. They may only be deleted by whoever holds the content hash,
   * so this process takes it with a 'deleting' row of its own — unless a live row holds it, whose
   * owner keeps those files (the same bytes) or removes them later, after these writes.
   */
  private async removeOrphans(row: MediaRow): Promise<void> {
    for (;;) {
      const holder = await this.deps.media.findByHash(row.content_hash);
      if (!holder) {
        const taken = await this.deps.mediaClaims.insertDeleting(row, this.claims.terms());
        if (taken) return this.claims.hold(taken.id, () => this.removeFiles(taken));
        continue;
      }
      if (holder.status !== 'deleting') return;
      await this.awaitGone(holder);
    }
  }

  /** Removes 'deleting' rows' files, then the rows (this process holds them). */
  private async removeFiles(...rows: MediaRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.deps.storage.delete(rows.flatMap(storedKeys));
    await this.deps.media.forgetDeleted(
      rows.map((row) => row.id),
      this.claims.owner,
    );
  }
}
