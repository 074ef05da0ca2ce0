import type { FastifyInstance } from 'fastify';
import { toAuthUser } from '../auth/auth-user.js';
import type { UsersRepository } from '../auth/users.repository.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { Authenticate } from '../http/route.js';
import type { IngestService } from '../ingest/ingest.service.js';
import type { UploadCapacity } from '../ingest/upload-capacity.js';
import type { Clock } from '../shared/clock.js';
import type { MediaStorage } from '../storage/storage.js';
import { IngestPlaces } from './ingest-places.js';
import { ResumableUploadsRepository } from './resumable-uploads.repository.js';
import { registerResumableUploadRoutes } from './resumable-uploads.routes.js';
import { ResumableUploadsService } from './resumable-uploads.service.js';
import { createTusServer } from './tus-endpoint.js';
import { createTusBytes } from './tus-stores.js';
import { startUploadSweep, sweepIntervalMs } from './upload-sweep.js';
import { UploadLocksRepository } from './upload-locks.repository.js';

/**
 * Resumable uploads (tus, decision 0010), assembled: the store for unfinished bytes, the service,
 * the routes, and the sweep (started when the app is ready, stopped — after the finishes under way —
 * when it closes). Finished uploads go through `ingest` under the multipart path's `capacity`.
 */
export async function registerResumableUploads(
  app: FastifyInstance,
  deps: {
    config: Config;
    database: Database;
    storage: MediaStorage;
    users: UsersRepository;
    ingest: IngestService;
    capacity: UploadCapacity;
    authenticate: Authenticate;
    clock: Clock;
  },
): Promise<void> {
  const { config } = deps;
  const bytes = await createTusBytes(config, deps.storage);
  const stopping = new AbortController();
  const locks = new UploadLocksRepository(deps.database.db);
  const uploads = new ResumableUploadsService({
    uploads: new ResumableUploadsRepository(deps.database.db),
    locks,
    bytes,
    ingest: deps.ingest,
    places: new IngestPlaces(deps.capacity, stopping.signal),
    userById: async (id) => {
      const row = await deps.users.findById(id);
      return row ? toAuthUser(row) : undefined;
    },
    clock: deps.clock,
    logger: app.log,
    limits: {
      maxFileBytes: config.uploads.maxFileBytes,
      maxUnfinishedBytes: config.resumableUploads.maxUnfinishedBytes,
      expiryMs: config.resumableUploads.expiryMs,
    },
  });
  const tus = createTusServer({ bytes, uploads, locks, clock: deps.clock, maxFileBytes: config.uploads.maxFileBytes });
  await registerResumableUploadRoutes(app, deps.authenticate, uploads, tus);

  let sweep: ReturnType<typeof startUploadSweep> | undefined;
  app.addHook('onReady', async () => {
    sweep = startUploadSweep({ uploads, intervalMs: sweepIntervalMs(config.resumableUploads.expiryMs), logger: app.log });
  });
  app.addHook('onClose', async () => {
    await sweep?.stop();
    // Finishes still waiting for an ingest place are left to the next start (their claims released).
    stopping.abort();
    await uploads.stop();
  });
}
