import { setTimeout as pause } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { type ExifFacts, NO_FACTS } from '../image-processing/exif.js';
import { type PeriodicJob, startPeriodicJob } from '../shared/periodic-job.js';
import type { MediaStorage } from '../storage/storage.js';
import type { FactsBackfillRepository, FactsUpdate, OldFacts } from './facts-backfill.repository.js';
import { type ExifReader, readStoredFacts } from './stored-facts.js';

export const BACKFILL_INTERVAL_MS = 10 * 60_000;
/** Pictures per transaction (and per library version change). */
const BATCH_SIZE = 25;
/** Rounds an original may fail to be read (storage trouble) before the facts known from the upload are kept. */
const MAX_ATTEMPTS = 3;

/**
 * Pictures stored before the timeline (decision 0009) kept only their date, camera and place, and
 * sort by their date read as UTC. This reads every fact again from their originals — lens,
 * exposure, the date's offset, the file's date — and gives their images their place: at start, then
 * every 10 minutes while any are left (at most those a process of an older version stores meanwhile).
 *
 * Low priority: one picture at a time with a pause after each, and one short transaction per batch.
 * Several processes may run it at once: a picture is only written while still at facts_version 0.
 */
export function startFactsBackfill(deps: {
  repository: FactsBackfillRepository;
  storage: MediaStorage;
  /** Reads the EXIF (the decoder process: the server loads no exifr or sharp for it, decision 0031). */
  exif: ExifReader;
  tempDir: string;
  logger: FastifyBaseLogger;
  /** Between two pictures (ms). */
  pauseMs?: number;
}): PeriodicJob<number> {
  const pauseMs = deps.pauseMs ?? 20;
  const failures = new Map<number, number>();
  let stopped = false;

  /** What was read, with what the upload kept where the original says nothing; undefined: try again later. */
  const factsOf = async (picture: OldFacts): Promise<ExifFacts | undefined> => {
    try {
      const read = await readStoredFacts(deps.storage, picture.original_key, deps.tempDir, deps.exif);
      if (!read) deps.logger.warn({ mediaId: picture.id }, 'the original of a picture is missing; keeping the facts read at upload');
      return withKnown(read ?? NO_FACTS, picture);
    } catch (err) {
      const attempts = (failures.get(picture.id) ?? 0) + 1;
      failures.set(picture.id, attempts);
      deps.logger.warn({ err, mediaId: picture.id, attempts }, 'the original of a picture could not be read for its facts');
      if (attempts < MAX_ATTEMPTS) return undefined;
      failures.delete(picture.id);
      return withKnown(NO_FACTS, picture);
    }
  };

  const backfill = async (): Promise<number> => {
    let saved = 0;
    let after = 0;
    while (!stopped) {
      const batch = await deps.repository.pending(BATCH_SIZE, after);
      if (batch.length === 0) break;
      const updates: FactsUpdate[] = [];
      for (const picture of batch) {
        if (stopped) break;
        after = picture.id;
        const facts = await factsOf(picture);
        if (facts) updates.push({ mediaId: picture.id, facts });
        await pause(pauseMs);
      }
      saved += await deps.repository.save(updates, new Map(batch.map((picture) => [picture.id, picture])));
    }
    if (saved > 0) deps.logger.info({ pictures: saved }, 'read the camera facts of pictures stored before the timeline');
    return saved;
  };

  const job = startPeriodicJob(backfill, {
    everyMs: BACKFILL_INTERVAL_MS,
    logger: deps.logger,
    failed: 'reading the facts of stored pictures failed; will retry',
  });
  return {
    runOnce: job.runOnce,
    /** Stops the timer and waits only for the picture under way (so the database is not closed under it). */
    stop: async () => {
      stopped = true;
      await job.stop();
    },
  };
}

/** The new reading, falling back to what the upload kept of date, camera and place (a lost original, a shorter reading). */
function withKnown(read: ExifFacts, known: OldFacts): ExifFacts {
  const knownPlace = known.gps_latitude !== null && known.gps_longitude !== null ? { latitude: known.gps_latitude, longitude: known.gps_longitude } : null;
  return {
    ...read,
    takenAt: read.takenAt ?? known.taken_at,
    takenOffset: read.takenAt ? read.takenOffset : null,
    camera: read.camera ?? known.camera,
    gps: read.gps ?? knownPlace,
  };
}
