import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { AddressProofsRepository } from './addresses/address-proofs.repository.js';
import { registerAddressRoutes } from './addresses/address-proofs.routes.js';
import { AddressProofsService } from './addresses/address-proofs.service.js';
import { AuthService, authLimits } from './auth/auth.service.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { PasswordResetsRepository } from './auth/password-resets.repository.js';
import { RateLimitsRepository } from './auth/rate-limits.repository.js';
import { SessionTokens } from './auth/session-tokens.js';
import { Throttle } from './auth/throttle.js';
import { UsersRepository } from './auth/users.repository.js';
import type { Config } from './config/config.js';
import { resolveJwtSecret } from './config/secrets.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { registerHealthRoutes } from './health/health.routes.js';
import { trustProxyOption } from './http/client-address.js';
import { registerErrorHandler } from './http/errors.js';
import { drainUnreadBodies } from './http/unread-body.js';
import { TurnLength } from './http/turn-length.js';
import { CrowdHeapGrowth } from './shared/crowd-heap-growth.js';
import { takeTurns } from './http/request-turns.js';
import { registerOpenApi } from './http/openapi.js';
import { registerSecurityHeaders } from './http/security.js';
import { isWebAppNavigation, registerWebApp } from './http/web-app.js';
import { createMailer } from './mail/mailer.js';
import { registerProfileRoutes } from './profile/profile.routes.js';
import { ProfileService } from './profile/profile.service.js';
import { type Clock, systemClock } from './shared/clock.js';
import { ImagePresenter } from './images/image-presenter.js';
import { ImagesRepository } from './images/images.repository.js';
import { registerImageRoutes } from './images/images.routes.js';
import { ImagesService } from './images/images.service.js';
import { IngestService } from './ingest/ingest.service.js';
import { MediaRepository } from './images/media.repository.js';
import { ImageUrls } from './media-access/image-urls.js';
import { MediaAccessRepository } from './media-access/media-access.repository.js';
import { MediaAccessService } from './media-access/media-access.service.js';
import { registerMediaRoutes } from './media-access/media.routes.js';
import { MediaProcessor } from './image-processing/media-processor.js';
import { TaskPool } from './image-processing/task-pool.js';
import { decoderLanes, ONE_LANE } from './decoder-process/decoder-lanes.js';
import { decoderProcess, inlineDecoder } from './decoder-process/decoder-process.js';
import { SearchService } from './images/search.service.js';
import { VisibleIds } from './read-caches/visible-ids.js';
import { warmAtStart, type WarmUp } from './read-caches/warm-at-start.js';
import { warmRequestPaths } from './warm-up/warm-request-paths.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { VisibleImageFinder } from './read-caches/visible-image-finder.js';
import { changesInView } from './read-caches/scope-changes.js';
import { pruneRemovals, pruneTouches } from './read-caches/library-version.js';
import { ImageCards } from './image-cards/image-cards.js';
import { MediaClaimsRepository } from './image-processing/media-claims.repository.js';
import { RequestVersions } from './read-caches/request-versions.js';
import { registerMultipart, registerUploadRoutes } from './ingest/upload.routes.js';
import { UploadCapacity } from './ingest/upload-capacity.js';
import { ProfileImageService } from './profile/profile-image.service.js';
import { LikesRepository } from './likes/likes.repository.js';
import { registerLikeRoutes } from './likes/likes.routes.js';
import { LikesService } from './likes/likes.service.js';
import { PresenceRepository } from './presence/presence.repository.js';
import { registerPresenceRoutes } from './presence/presence.routes.js';
import { PresenceService } from './presence/presence.service.js';
import { TagAdminService } from './tags/tag-admin.service.js';
import { TagChangesRepository } from './tags/tag-changes.repository.js';
import { TagsRepository } from './tags/tags.repository.js';
import { TagPrefixAnswers } from './tags/tag-prefixes.js';
import { registerAdminTagRoutes, registerTagRoutes } from './tags/tags.routes.js';
import { TagsService } from './tags/tags.service.js';
import { VisibleVocabulary } from './tags/visible-vocabulary.js';
import { viewOf, visibilityScope } from './access/visible-scope.js';
import type { AuthUser } from './auth/auth-user.js';
import { AccessRecordsRepository } from './sharing/access-records.repository.js';
import { ShareLinks } from './sharing/share-links.js';
import { ShareNotifier } from './sharing/share-notifier.js';
import { SharedViewsService } from './sharing/shared-views.service.js';
import { registerSharingRoutes } from './sharing/sharing.routes.js';
import { SharingService } from './sharing/sharing.service.js';
import { TemplatesRepository } from './templates/templates.repository.js';
import { registerTemplateRoutes } from './templates/templates.routes.js';
import { TemplatesService } from './templates/templates.service.js';
import { DownloadsRepository } from './downloads/downloads.repository.js';
import { registerDownloadRoutes } from './downloads/downloads.routes.js';
import { DownloadsService } from './downloads/downloads.service.js';
import { createStorage } from './storage/create-storage.js';
import { UrlSigner } from './storage/url-signer.js';
import { mkdir, rm } from 'node:fs/promises';
import { TrashRepository } from './trash/trash.repository.js';
import { startTrashPurge } from './trash/trash-purge.js';
import { registerTrashRoutes } from './trash/trash.routes.js';
import { registerTimelineRoutes } from './timeline/timeline.routes.js';
import { TimelineService } from './timeline/timeline.service.js';
import { TrashService } from './trash/trash.service.js';
import { FactsBackfillRepository } from './image-info/facts-backfill.repository.js';
import { startFactsBackfill } from './image-info/facts-backfill.js';
import { ImageInfoRepository } from './image-info/image-info.repository.js';
import { registerImageInfoRoutes } from './image-info/image-info.routes.js';
import { ImageInfoService } from './image-info/image-info.service.js';
import { registerResumableUploads } from './resumable-uploads/resumable-uploads.js';

export interface AppOptions {
  config: Config;
  clock?: Clock;
}

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * Builds the whole server: database (migrated), services and every route. The returned instance
 * is ready to listen; closing it finishes in-flight requests, then closes the database and mailer.
 */
export async function buildApp({ config, clock = systemClock }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      // Readable lines for a person at a terminal; JSON lines for log collectors everywhere else.
      ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
    },
    trustProxy: trustProxyOption(config.trustProxy),
    // Two info lines per request were ~8% of a cheap request's cost; see logRequests() instead.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Let in-flight requests finish on close; idle keep-alive sockets are closed at once.
    forceCloseConnections: 'idle',
  });
  // First of the onRequest hooks: while a crowd is served, newcomers are let in (request-turns.ts).
  takeTurns(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('user', null);
  registerErrorHandler(app);
  closeKeepAliveOnShutdown(app);
  // A body answered before it was read (over bodyLimit, refused upload) is drained, so the answer is not lost to a reset.
  drainUnreadBodies(app);
  logRequests(app);

  const database = openDatabase(config);
  // Image work still running at shutdown finishes first: it writes rows when done.
  const imagePool = new TaskPool(config.imageWorkers, config.imageMemoryBytes);
  if (config.imageDecoder === 'process') decoderProcess.useLanes(config.imageDecoderPinning === 'off' ? ONE_LANE : decoderLanes(config.imageWorkers));
  const imageDecoder = config.imageDecoder === 'process' ? decoderProcess : inlineDecoder;
  app.addHook('onClose', async () => {
    await imagePool.onIdle();
    await database.close();
  });
  await migrateToLatest(database);

  const mailer = createMailer(config.mail, app.log);
  app.addHook('onClose', async () => mailer.close());

  const users = new UsersRepository(database.db, database.localChanges);
  const throttle = new Throttle(new RateLimitsRepository(database.db), clock);
  const resets = new PasswordResetsRepository(database.db);
  const secret = await resolveJwtSecret(config);
  const tokens = new SessionTokens(secret, config.jwt.ttl);
  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  if (!config.publicUrl) app.log.warn(`PUBLIC_URL is not set; links in e-mails will point to ${publicUrl}`);
  const addresses = new AddressProofsService({
    db: database.db, proofs: new AddressProofsRepository(database.db), users, mailer, throttle, clock, logger: app.log, publicUrl,
  });
  const auth = new AuthService({ database, users, resets, tokens, throttle, mailer, clock, logger: app.log, publicUrl, addresses });
  // The session check reads the account and the library version in one statement; the version is
  // kept for the request's cached reads, so a cached one costs that single round trip (decision 0011).
  const requestVersions = new RequestVersions(database.db);
  const authenticate = async (token: string) => {
    const session = await auth.authenticate(token);
    if (!session) return null;
    requestVersions.remember(session.user, session.libraryVersion);
    return session.user;
  };
  const libraryVersionOf = (user: AuthUser) => requestVersions.of(user);

  const signer = new UrlSigner(secret);
  const storage = await createStorage(config, signer);
  if ('ensureBucket' in storage && typeof storage.ensureBucket === 'function') await storage.ensureBucket();
  app.addHook('onClose', async () => storage.close?.());
  // Leftovers of a process that stopped mid-upload; what they held is redone from storage.
  await rm(config.tempDir, { recursive: true, force: true });
  await mkdir(config.tempDir, { recursive: true });
  const imagesRepository = new ImagesRepository(database.db);
  const mediaRepository = new MediaRepository(database.db);
  const processor = new MediaProcessor({
    storage, media: mediaRepository, mediaClaims: new MediaClaimsRepository(database.db), pool: imagePool, decoder: imageDecoder, clock, logger: app.log, tempDir: config.tempDir,
  });
  const ingest = new IngestService({ media: mediaRepository, processor, clock });
  const tagsRepository = new TagsRepository(database.db, config.hiddenTags, database.localChanges && new TagPrefixAnswers(database.localChanges));
  const likesRepository = new LikesRepository(database.db);
  // Photo URLs are bound to a viewer and checked on every request (media-access/); own signing key.
  const imageUrls = new ImageUrls(secret);
  // What pages show of each image, kept per image and caught up with the library version (image-cards/).
  const cards = new ImageCards(database.db, {
    rows: (ids) => imagesRepository.withMedia(ids),
    labels: (ids) => tagsRepository.labelsOf(ids),
    likers: (ids) => likesRepository.likersOf(ids),
  });
  const presenter = new ImagePresenter(imageUrls, clock, { cards, versionOf: (viewer) => requestVersions.of(viewer) });
  const visibleIds = new VisibleIds(database.db, imagesRepository, libraryVersionOf);
  // Detail, like, tag, "I'm in this photo": the image found from the id lists and cards above.
  const visibleImages = new VisibleImageFinder({ visibleIds, cards, images: imagesRepository });
  const images = new ImagesService({ images: imagesRepository, visibleIds, visible: visibleImages, presenter, processor, clock, trashDays: config.trashDays });
  const timeline = new TimelineService({ images: imagesRepository, visibleIds, presenter });
  const trash = new TrashService({
    trash: new TrashRepository(database.db), images: imagesRepository, presenter, urls: imageUrls, processor, trashDays: config.trashDays,
  });
  // The tags each person may learn of (those on images they see), shared by tag calls and search.
  const tagVocabulary = new VisibleVocabulary({
    tags: tagsRepository, libraryVersion: libraryVersionOf,
    scopeOf: visibilityScope, viewOf: (user) => viewOf(database.db, user),
    // Tags and their counts show no likes: a like leaves a view's vocabulary as it was.
    changesInView: (user, from, to) => changesInView(database.db, visibleIds, user, from, to, { likesMatter: false }),
  });
  const search = new SearchService(database.db, database.dialect, presenter, tagVocabulary, visibleIds, cards);
  const tagChanges = new TagChangesRepository(database.db);
  const tags = new TagsService({
    tags: tagsRepository, changes: tagChanges, images: imagesRepository, visible: visibleImages, presenter, cards, clock,
    libraryVersion: libraryVersionOf, vocabulary: tagVocabulary,
  });
  const likes = new LikesService({ likes: likesRepository, images: imagesRepository, visible: visibleImages, presenter, cards, clock });
  const presence = new PresenceService({ presence: new PresenceRepository(database.db), images: imagesRepository, visible: visibleImages, presenter, clock });
  const profiles = new ProfileService(users, clock, imagesRepository, presenter, storage, tagsRepository);
  const profileImages = new ProfileImageService({ users, storage, pool: imagePool, decoder: imageDecoder, clock, tempDir: config.tempDir });
  const templatesRepository = new TemplatesRepository(database.db);
  const templates = new TemplatesService(templatesRepository, clock);
  const accessRecords = new AccessRecordsRepository(database.db);
  const sharing = new SharingService({
    db: database.db,
    records: accessRecords,
    images: imagesRepository,
    links: new ShareLinks(secret),
    notifier: new ShareNotifier({ mailer, templates: templatesRepository, logger: app.log }),
    throttle,
    clock,
    publicUrl,
    users,
    addresses,
  });
  const sharedViews = new SharedViewsService({ records: accessRecords, images: imagesRepository, presenter });

  // The whole library's list and its newest cards are read at start, before anyone asks (decision 0030).
  let warmUp: WarmUp | undefined;
  app.addHook('onReady', async () => {
    warmUp = warmAtStart({ visibleIds, cards, logger: app.log });
  });
  app.addHook('onClose', async () => warmUp?.stop());
  app.decorate('readCachesWarmed', () => warmUp?.done ?? Promise.resolve());
  // Before it listens, the server sends its own requests through its request handler (decision 0037).
  app.decorate('warmRequestPaths', () =>
    warmRequestPaths({
      handler: app.server.listeners('request')[0] as ((req: IncomingMessage, res: ServerResponse) => void) | undefined,
      tokenOf: () => auth.warmUpToken(),
      requests: config.warmUpRequests,
      logger: app.log,
    }),
  );
  // Image work a dead process left is taken up at once, and claims are kept alive (image-processing/claims.ts).
  app.addHook('onReady', async () => processor.start());
  app.addHook('onClose', async () => processor.stop());
  // What has been in the Trash longer than TRASH_DAYS goes for good: at start, then every 10 minutes.
  let trashPurge: ReturnType<typeof startTrashPurge> | undefined;
  app.addHook('onReady', async () => {
    trashPurge = startTrashPurge({ trash, clock, trashDays: config.trashDays, logger: app.log });
  });
  app.addHook('onClose', async () => trashPurge?.stop());
  // Pictures stored before the timeline get every fact read again from their originals, in the background.
  let factsBackfill: ReturnType<typeof startFactsBackfill> | undefined;
  app.addHook('onReady', async () => {
    factsBackfill = startFactsBackfill({ repository: new FactsBackfillRepository(database.db), storage, exif: imageDecoder, tempDir: config.tempDir, logger: app.log });
  });
  app.addHook('onClose', async () => factsBackfill?.stop());

  const housekeeping = setInterval(() => {
    const cutoff = new Date(clock.now().getTime() - 86_400_000).toISOString();
    Promise.all([throttle.prune(authLimits.signinKnownClient), resets.deleteExpiredBefore(cutoff), addresses.deleteExpiredBefore(cutoff), pruneRemovals(database.db), pruneTouches(database.db)]).catch((err: unknown) =>
      app.log.warn({ err }, 'housekeeping failed'),
    );
  }, 3_600_000);
  housekeeping.unref();
  app.addHook('onClose', async () => clearInterval(housekeeping));

  registerSecurityHeaders(app);
  await registerOpenApi(app, version);
  await registerWebApp(app, config.webDist);
  registerHealthRoutes(app, authenticate, database, version);
  registerAuthRoutes(app, authenticate, auth);
  registerAddressRoutes(app, authenticate, addresses);
  await registerMultipart(app, config.uploads.maxFileBytes);
  registerProfileRoutes(app, authenticate, profiles, profileImages, config.uploads.maxFileBytes);
  registerImageRoutes(app, authenticate, images, search);
  registerImageInfoRoutes(app, authenticate, new ImageInfoService(new ImageInfoRepository(database.db)));
  registerTimelineRoutes(app, authenticate, timeline);
  registerTagRoutes(app, authenticate, tags);
  registerAdminTagRoutes(app, authenticate, new TagAdminService(tagsRepository, tagChanges));
  registerLikeRoutes(app, authenticate, likes);
  registerPresenceRoutes(app, authenticate, presence);
  registerSharingRoutes(app, authenticate, sharing, sharedViews);
  registerTemplateRoutes(app, authenticate, templates);
  registerTrashRoutes(app, authenticate, trash);
  // One capacity for multipart and resumable uploads: the same per-person and per-server limits,
  // and no new upload while the event loop's turns are long (decision 0024).
  const turnLength = new TurnLength();
  turnLength.start();
  app.addHook('onClose', async () => turnLength.stop());
  // Under a crowd, fewer full collections (shared/crowd-heap-growth.ts, decision 0037).
  const crowdHeapGrowth = new CrowdHeapGrowth(() => turnLength.medianMs());
  crowdHeapGrowth.start();
  app.addHook('onClose', async () => crowdHeapGrowth.stop());
  const uploadCapacity = UploadCapacity.forWorkers(config.imageWorkers, turnLength);
  registerUploadRoutes(app, authenticate, ingest, uploadCapacity, {
    tempDir: config.tempDir,
    maxFileBytes: config.uploads.maxFileBytes,
    maxRequestBytes: config.uploads.maxRequestBytes,
    idleTimeoutMs: config.uploads.idleTimeoutMs,
  });
  const mediaAccess = new MediaAccessService({ repository: new MediaAccessRepository(database.db), images: imagesRepository, urls: imageUrls, clock });
  registerMediaRoutes(app, { access: mediaAccess, storage, profileSigner: signer, clock });
  const downloads = new DownloadsService({ downloads: new DownloadsRepository(database.db), images: imagesRepository, clock });
  registerDownloadRoutes(app, authenticate, { downloads, storage, clock });
  await registerResumableUploads(app, { config, database, storage, users, ingest, capacity: uploadCapacity, authenticate, clock });

  app.setNotFoundHandler((request, reply) => {
    if (isWebAppNavigation(request)) return reply.sendWebApp();
    return reply.code(404).send({ message: `There is no ${request.method} ${request.url.split('?')[0]} here.`, msg: 'Not found.' });
  });

  return app;
}

/**
 * A request in flight when shutdown starts still gets its answer, but over a connection that then
 * closes: otherwise a keep-alive client would hold the server open until the grace period ends.
 */
function closeKeepAliveOnShutdown(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}

/**
 * One line per finished request: at info for server errors and slow requests (over a second, the
 * ones worth a look), at debug for the rest and for each arriving request (LOG_LEVEL=debug gives a
 * full access log).
 */
function logRequests(app: FastifyInstance): void {
  const debug = () => app.log.level === 'debug' || app.log.level === 'trace';
  app.addHook('onRequest', async (request) => {
    if (debug()) request.log.debug({ method: request.method, url: request.url }, 'incoming request');
  });
  app.addHook('onResponse', async (request, reply) => {
    const took = reply.elapsedTime;
    const level = reply.statusCode >= 500 || took > 1000 ? 'info' : 'debug';
    if (level === 'debug' && !debug()) return;
    request.log[level]({ method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(took) }, 'request completed');
  });
}
