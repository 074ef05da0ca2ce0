import type { IncomingMessage, ServerResponse } from 'node:http';
import { TUS_PATH, type UploadOutcome, UPLOAD_OUTCOME_HEADERS } from '@photo/contract';
import type { Lock } from '@tus/server';
import { loadOnFirstUse } from '../shared/load-on-first-use.js';
import type { AuthUser } from '../auth/auth-user.js';
import { AppError } from '../http/errors.js';
import type { ResumableUploadsService } from './resumable-uploads.service.js';
import { newUploadId, type TusBytes } from './tus-stores.js';
import { UploadLocker } from './upload-locker.js';
import type { UploadLocksRepository } from './upload-locks.repository.js';
import type { Clock } from '../shared/clock.js';

/** The person each request tus handles was authenticated as (set by the route before handing over). */
export const tusRequestUsers = new WeakMap<IncomingMessage, AuthUser>();

/**
 * The upload id the route checked as the caller's, for each request tus handles that names one.
 * tus acts on this id and no other: its own reading of the URL takes the last path segment of the
 * whole URL, query included, so `/api/uploads/<mine>?x=/<yours>` would otherwise pass the check on
 * one upload and read or write another.
 */
export const tusRequestUploadIds = new WeakMap<IncomingMessage, string>();

/** The request object tus hands to its hooks (srvx's), which carries Node's request. */
interface NodeBackedRequest {
  method: string;
  runtime?: { node?: { req?: IncomingMessage } };
}

/** The tus server, and its lock on one upload (held by whichever request works on the upload). */
export interface TusEndpoint {
  /** Hands one request to tus. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  lockFor(id: string): Promise<Lock>;
}

/**
 * The tus 1.0 server (@tus/server) over the configured store. Its hooks are where tus meets the
 * rest of the app: a new upload is recorded as the caller's (the route has authenticated them and
 * checked the limits), and the request that brings the last byte is answered with the file's outcome.
 */
export function createTusServer(deps: TusServerDeps): TusEndpoint {
  // @tus/server (about 15 MB resident) is loaded with the first tus request, not at start (issue 14: idle memory).
  let loaded: ReturnType<typeof buildTusServer> | undefined;
  const tus = () => (loaded ??= buildTusServer(deps));
  return {
    handle: async (req, res) => (await tus()).server.handle(req, res),
    lockFor: async (id) => (await tus()).locker.newLock(deps.bytes.storeId(id)),
  };
}

interface TusServerDeps {
  bytes: TusBytes;
  uploads: ResumableUploadsService;
  locks: UploadLocksRepository;
  clock: Clock;
  maxFileBytes: number;
}

async function buildTusServer(deps: TusServerDeps) {
  const { ERRORS, EVENTS, MemoryLocker, Server } = loadOnFirstUse<typeof import('@tus/server')>('@tus/server');
  const { bytes, uploads } = deps;
  // Requests for one upload take turns across every process (upload-locker.ts).
  const locker = new UploadLocker({ local: new MemoryLocker(), locks: deps.locks, owner: uploads.owner, clock: deps.clock, timeoutError: ERRORS.ERR_LOCK_TIMEOUT });
  const server = new Server({
    path: TUS_PATH,
    locker,
    datastore: bytes.datastore,
    maxSize: deps.maxFileBytes,
    // Relative, so the URL is right behind any proxy (clients resolve it against the endpoint).
    generateUrl: (_req, { path, id }) => `${path}/${bytes.publicId(id)}`,
    // undefined is tus's 404: no checked id, or a URL whose last segment is not the checked id.
    getFileIdFromRequest: (req, last) => {
      const checked = checkedUploadId(req);
      return checked !== undefined && last === checked ? bytes.storeId(checked) : undefined;
    },
    namingFunction: () => bytes.storeId(newUploadId()),
    // The web app is same-origin; no cross-origin access.
    allowedOrigins: () => false,
    exposedHeaders: Object.values(UPLOAD_OUTCOME_HEADERS),
    onUploadCreate: async (req, upload) => {
      const user = userOf(req);
      await asTusError(() => uploads.created(user, bytes.publicId(upload.id), upload.size ?? 0, upload.metadata));
      return {};
    },
    onUploadFinish: async (req, upload) => {
      // tus reads the upload again before answering a POST: the bytes go once the answer is out.
      const outcome = await uploads.finish(bytes.publicId(upload.id), { keepBytes: true });
      if (!outcome) return {};
      // A PATCH is answered 200 with the outcome; a POST (an empty file, or all of it with the creation) stays 201 for its Location.
      return { ...((req as NodeBackedRequest).method === 'PATCH' ? { status_code: 200 } : {}), ...outcomeAnswer(outcome) };
    },
  });
  server.on(EVENTS.POST_FINISH, (_req, _res, upload) => void uploads.discardFinished(bytes.publicId(upload.id)).catch(() => undefined));
  return { server, locker };
}

/** The outcome as the final PATCH carries it: JSON, and in brief in headers for clients that read no body. */
export function outcomeAnswer(outcome: UploadOutcome): { headers: Record<string, string>; body: string } {
  return {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      [UPLOAD_OUTCOME_HEADERS.status]: outcome.status,
      ...(outcome.imageId ? { [UPLOAD_OUTCOME_HEADERS.imageId]: outcome.imageId } : {}),
    },
    body: JSON.stringify(outcome),
  };
}

function checkedUploadId(req: unknown): string | undefined {
  const raw = (req as NodeBackedRequest).runtime?.node?.req;
  return raw ? tusRequestUploadIds.get(raw) : undefined;
}

function userOf(req: unknown): AuthUser {
  const raw = (req as NodeBackedRequest).runtime?.node?.req;
  const user = raw ? tusRequestUsers.get(raw) : undefined;
  // The route authenticates every tus request before tus sees it; this cannot happen.
  if (!user) throw { status_code: 401, body: 'Please sign in to continue.' };
  return user;
}

/** tus answers a thrown `{ status_code, body }` as is. */
async function asTusError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw { status_code: error.statusCode, body: error.message };
    throw error;
  }
}
