import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import { TUS_PATH, type UploadOutcome, UPLOAD_OUTCOME_HEADERS } from '@photo/contract';
import type { Lock } from '@tus/server';
import { loadOnFirstUse } from '../shared/load-on-first-use.js';
import type { AuthUser } from '../auth/auth-user.js';
import { AppError, errorBody } from '../http/errors.js';
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

/** The error behind each 5xx answer of tus (its answer says only "something went wrong"). */
const serverFailures = new WeakMap<IncomingMessage, unknown>();

/** The request object tus hands to its hooks (srvx's), which carries Node's request. */
interface NodeBackedRequest {
  method: string;
  runtime?: { node?: { req?: IncomingMessage } };
}

/** The tus server, and its lock on one upload (held by whichever request works on the upload). */
export interface TusEndpoint {
  /** Hands one request to tus; answers the error behind a 5xx answer, for the log (tus logs nothing). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<unknown>;
  lockFor(id: string): Promise<Lock>;
}

/**
 * The tus 1.0 server (@tus/server) over the configured store. Its hooks are where tus meets the
 * rest of the app: a new upload is recorded as the caller's (the route has authenticated them and
 * checked the limits), and the request that brings the last byte is answered with the file's outcome.
 * Its error answers go out as every other call's: the error handler's JSON (tusErrorWords).
 */
export function createTusServer(deps: TusServerDeps): TusEndpoint {
  // @tus/server (about 15 MB resident) is loaded with the first tus request, not at start (issue 14: idle memory).
  let loaded: ReturnType<typeof buildTusServer> | undefined;
  const tus = () => (loaded ??= buildTusServer(deps));
  return {
    handle: async (req, res) => {
      const { server, srvx, errorAnswer } = await tus();
      // tus's own handle() is these steps; its answer is looked at in between, so an error goes out as the API's JSON.
      const answer = await server.handleWeb(new srvx.NodeRequest({ req, res }));
      const sent = answer.status >= 400 ? await errorAnswer(answer) : answer;
      await srvx.sendNodeResponse(res, sent);
      return sent.status >= 500 ? (serverFailures.get(req) ?? `tus answered ${answer.status}`) : undefined;
    },
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
    onResponseError: (req, error) => {
      const raw = nodeRequestOf(req);
      if (raw && ('status_code' in error ? error.status_code : 500) >= 500) serverFailures.set(raw, error);
      return undefined;
    },
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
  const words = tusErrorWords(ERRORS, deps.maxFileBytes);
  return { server, locker, srvx: srvxOfTus(), errorAnswer: (answer: Response) => asJsonError(answer, words) };
}

/** srvx, the adapter @tus/server meets Node's requests with: the very copy tus loads. */
function srvxOfTus(): typeof import('srvx/node') {
  const tusEntry = createRequire(import.meta.url).resolve('@tus/server');
  return createRequire(tusEntry)('srvx/node') as typeof import('srvx/node');
}

export interface ErrorWords {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

const TUS_VERSION = '1.0.0';
const SOMETHING_WENT_WRONG = 'Something went wrong on our side. Please try again.';

/** What a client sent wrong in one header, by the names tus's header check reports ("Invalid upload-offset"). */
const HEADER_PROBLEMS = {
  'upload-offset': 'Upload-Offset must say where these bytes start: a whole number of bytes (0 or more).',
  'upload-length': 'Upload-Length must be the file\'s size: a whole number of bytes.',
  'upload-metadata': 'Upload-Metadata is not valid: it must be comma-separated pairs of a key and its Base64 value, each key once.',
  'content-type': 'Send the bytes of a PATCH as Content-Type: application/offset+octet-stream.',
  'upload-defer-length': 'Upload-Defer-Length is not supported: send the file\'s size in Upload-Length.',
  'upload-concat': 'Upload-Concat is not supported (no concatenation): send each file as one upload.',
  'tus-resumable': `This server speaks tus ${TUS_VERSION}: send Tus-Resumable: ${TUS_VERSION}.`,
  'tus-version': `This server speaks tus ${TUS_VERSION} only.`,
  'x-forwarded-proto': 'X-Forwarded-Proto must be http or https.',
} as const satisfies Record<string, string>;

const headerProblem = (name: string): string =>
  (HEADER_PROBLEMS as Record<string, string | undefined>)[name] ?? `The header ${name} is not valid.`;

/** The protocol's answer to a version it does not speak: 412 with the versions it does. */
const VERSION_REFUSED: ErrorWords = { status: 412, message: HEADER_PROBLEMS['tus-resumable'], headers: { 'Tus-Version': TUS_VERSION } };

/**
 * tus's own error answers (its ERRORS, in plain text) in the API's words and, where tus's status is
 * not the client's to act on, another: a missing Upload-Offset or Content-Type is a 400 (tus: 403,
 * which clients read as "signed out"), and the deferred-length and concatenation extensions, which
 * the client chose and this server does not offer, are a 400 naming them (tus: 501; the tus 1.0
 * spec gives no status for an extension a server lacks, and answers an unknown checksum algorithm
 * with 400); its lock timeout is a 423 (below). The statuses tus clients act on stay: 404, 409, 410, 412, 413.
 */
export function tusErrorWords(ERRORS: typeof import('@tus/server').ERRORS, maxFileBytes: number): (status: number, text: string) => ErrorWords {
  const byText = new Map<string, ErrorWords>([
    [ERRORS.FILE_NOT_FOUND.body, { status: 404, message: 'There is no such upload of yours.' }],
    [ERRORS.FILE_NO_LONGER_EXISTS.body, { status: 410, message: 'This upload has expired; start it again.' }],
    [ERRORS.INVALID_OFFSET.body, { status: 409, message: 'Upload-Offset conflict: the server holds another number of this upload\'s bytes; ask with HEAD and send from its Upload-Offset.' }],
    [ERRORS.MISSING_OFFSET.body, { status: 400, message: HEADER_PROBLEMS['upload-offset'] }],
    [ERRORS.INVALID_CONTENT_TYPE.body, { status: 400, message: HEADER_PROBLEMS['content-type'] }],
    [ERRORS.ERR_SIZE_EXCEEDED.body, { status: 413, message: 'These bytes go past the Upload-Length the upload was created with.' }],
    [ERRORS.ERR_MAX_SIZE_EXCEEDED.body, { status: 413, message: `The file is larger than the ${Math.round(maxFileBytes / 1048576)} MB limit.` }],
    [ERRORS.INVALID_LENGTH.body, { status: 400, message: 'Send Upload-Length, the file\'s size in bytes (Upload-Defer-Length is not supported).' }],
    [ERRORS.INVALID_METADATA.body, { status: 400, message: HEADER_PROBLEMS['upload-metadata'] }],
    [ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION.body, { status: 400, message: HEADER_PROBLEMS['upload-defer-length'] }],
    [ERRORS.UNSUPPORTED_CONCATENATION_EXTENSION.body, { status: 400, message: HEADER_PROBLEMS['upload-concat'] }],
    [ERRORS.ABORTED.body, { status: ERRORS.ABORTED.status_code, message: 'This request was stopped: another request for the same upload took over. Ask with HEAD where it stands.' }],
    // tus says 500; nothing failed: the client's earlier request still holds the upload. 423, which
    // tus clients (tus-js-client, the importer) retry, as they do a 5xx; not logged as a failure.
    [ERRORS.ERR_LOCK_TIMEOUT.body, { status: 423, message: 'Another request for this upload is still running; try again in a moment.', headers: { 'Retry-After': '1' } }],
    ['Tus-Resumable Required\n', VERSION_REFUSED],
  ]);
  return (status, text) => {
    const known = byText.get(text);
    if (known) return known;
    // tus's check of the request's headers names each one it refused.
    const invalid = /^Invalid ([a-z0-9 -]+)\n?$/i.exec(text)?.[1]?.toLowerCase().split(' ');
    if (invalid?.includes('tus-resumable')) return VERSION_REFUSED;
    if (invalid) return { status: 400, message: invalid.map(headerProblem).join(' ') };
    // A server's failure says no more than the error handler's (tus's text carries the error's own message).
    if (status >= 500) return { status, message: SOMETHING_WENT_WRONG };
    // Ours, thrown from a hook (asTusError) with its words.
    return { status, message: text.trim() || 'The request was refused.' };
  };
}

/** An error answer of tus as the API's error JSON, with tus's headers (Tus-Resumable, …). */
async function asJsonError(answer: Response, words: (status: number, text: string) => ErrorWords): Promise<Response> {
  const { status, message, headers = {} } = words(answer.status, await answer.text());
  const json = JSON.stringify(errorBody(message));
  const out = new Headers(answer.headers);
  for (const [name, value] of Object.entries(headers)) out.set(name, value);
  out.set('Content-Type', 'application/json; charset=utf-8');
  out.set('Content-Length', String(Buffer.byteLength(json)));
  return new Response(json, { status, statusText: STATUS_CODES[status] ?? '', headers: out });
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

function nodeRequestOf(req: unknown): IncomingMessage | undefined {
  return (req as NodeBackedRequest).runtime?.node?.req;
}

function checkedUploadId(req: unknown): string | undefined {
  const raw = nodeRequestOf(req);
  return raw ? tusRequestUploadIds.get(raw) : undefined;
}

function userOf(req: unknown): AuthUser {
  const raw = nodeRequestOf(req);
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
