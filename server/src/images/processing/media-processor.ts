import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { MediaRow } from '../../db/schema.js';
import type { Clock } from '../../shared/clock.js';
import type { MediaStorage } from '../../storage/storage.js';
import { decoderFor, type Decoder } from '../ingest/file-type.js';
import type { MediaRepository } from '../media.repository.js';
import { deriveImages, UnreadableImageError } from './derive.js';
import { readExif } from './exif.js';
import type { TaskPool } from './task-pool.js';

export type ProcessResult = { ok: true } | { ok: false; reason: string };

/** Pending work older than this is considered abandoned by a process that died, and redone. */
const CLAIM_TIMEOUT_MS = 10 * 60_000;

export const derivedKeys = (contentHash: string) => ({
  display: `derived/${contentHash}/display.webp`,
  thumbnail: `derived/${contentHash}/thumb.webp`,
});

/**
 * Turns a pending media into a ready one: derived images made in the bounded pool, written to
 * storage, then the row marked ready (which makes its images visible). A file that cannot be
 * decoded is forgotten entirely — rows and stored objects — so nothing is left orphaned.
 */
export class MediaProcessor {
  constructor(
    private readonly deps: {
      storage: MediaStorage;
      media: MediaRepository;
      pool: TaskPool;
      clock: Clock;
      logger: FastifyBaseLogger;
      tempDir: string;
    },
  ) {}

  /**
   * Processes `media` from a local copy of its original. With `storeOriginal`, the original is
   * copied into storage at the same time (its upload overlaps the decoding).
   */
  async process(media: MediaRow, localFile: string, decoder: Decoder, storeOriginal: boolean): Promise<ProcessResult> {
    const { storage, pool, logger } = this.deps;
    const keys = derivedKeys(media.content_hash);
    const originalStored = storeOriginal ? storage.putFile(media.original_key, localFile, media.mime) : Promise.resolve();
    // Settled either way before anything is deleted, so a late write cannot recreate a removed object.
    const original = originalStored.then(
      () => undefined,
      (error: unknown) => error,
    );
    try {
      const derived = await pool.run(async () => {
        const [images, exif] = await Promise.all([deriveImages(localFile, decoder), readExif(localFile)]);
        return { images, exif };
      });
      await Promise.all([
        storage.putBuffer(keys.display, derived.images.display.data, 'image/webp'),
        storage.putBuffer(keys.thumbnail, derived.images.thumbnail.data, 'image/webp'),
      ]);
      const storeError = await original;
      if (storeError) throw storeError;
      await this.deps.media.markReady(media.id, {
        placeholder: derived.images.placeholder,
        takenAt: derived.exif.takenAt,
        camera: derived.exif.camera,
        gps: derived.exif.gps,
        displayKey: keys.display,
        thumbnailKey: keys.thumbnail,
      });
      return { ok: true };
    } catch (error) {
      await original;
      if (error instanceof UnreadableImageError) {
        const stale = await this.deps.media.discard(media, [keys.display, keys.thumbnail]);
        await storage.delete(stale);
        return { ok: false, reason: error.message };
      }
      // Storage or database trouble: the media stays pending and claimed; `resumeStalled` retries it.
      logger.error({ err: error, mediaId: media.id }, 'processing an image failed; it will be retried');
      throw error;
    }
  }

  /**
   * Picks up media left pending by a process that stopped mid-way (crash, deploy): their original
   * is read back from storage and processed again. Safe with several processes: each claims first.
   */
  async resumeStalled(): Promise<number> {
    const now = this.deps.clock.now();
    const before = new Date(now.getTime() - CLAIM_TIMEOUT_MS).toISOString();
    const stalled = await this.deps.media.stalled(before, 50);
    let resumed = 0;
    for (const media of stalled) {
      if (!(await this.deps.media.claim(media.id, before, now.toISOString()))) continue;
      resumed += 1;
      const original = await this.deps.storage.get(media.original_key);
      if (!original) {
        this.deps.logger.warn({ mediaId: media.id }, 'a pending image lost its original; forgetting it');
        await this.deps.storage.delete(await this.deps.media.discard(media, []));
        continue;
      }
      const localFile = path.join(this.deps.tempDir, `resume-${randomBytes(12).toString('hex')}`);
      try {
        await pipeline(original, createWriteStream(localFile));
        const result = await this.process(media, localFile, decoderFor(media.mime), false);
        if (!result.ok) this.deps.logger.warn({ mediaId: media.id, reason: result.reason }, 'a resumed image could not be read');
      } catch (err) {
        this.deps.logger.error({ err, mediaId: media.id }, 'resuming an image failed');
      } finally {
        await rm(localFile, { force: true });
      }
    }
    return resumed;
  }
}
