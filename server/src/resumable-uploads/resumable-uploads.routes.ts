import { calls, TUS_PATH, UPLOAD_OUTCOME_HEADERS } from '@photo/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../auth/auth-user.js';
import { badRequest, errorBody, unauthorized } from '../http/errors.js';
import { type Authenticate, registerCall } from '../http/route.js';
import type { ResumableUploadRow } from './resumable-uploads.repository.js';
import type { ResumableUploadsService } from './resumable-uploads.service.js';
import { outcomeAnswer, type TusEndpoint, tusRequestUploadIds, tusRequestUsers } from './tus-endpoint.js';

const TUS_VERSION_HEADER = { 'tus-resumable': '1.0.0' };

/**
 * The tus endpoint (TUS_PATH, TUS_PATH/:id) and the two calls around it. Every tus request but
 * OPTIONS carries the bearer token like any call; an upload id that is not the caller's is a 404.
 * tus gets the raw request and response: Fastify parses no body on these routes.
 */
export async function registerResumableUploadRoutes(
  app: FastifyInstance,
  authenticate: Authenticate,
  uploads: ResumableUploadsService,
  tus: TusEndpoint,
): Promise<void> {
  registerCall(app, authenticate, calls.checkUploads, ({ user, body }) => uploads.known(user, body.files));
  registerCall(app, authenticate, calls.getUploadOutcome, ({ user, params }) => uploads.outcome(user, params.id));

  const rows = new WeakMap<FastifyRequest, ResumableUploadRow>();
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'OPTIONS') return;
    // Every tus answer names the protocol, also the refusals below (the error handler's JSON).
    reply.headers(TUS_VERSION_HEADER);
    const user = await identify(request, authenticate);
    if (!user) throw unauthorized(request.headers.authorization ? 'Your session has expired. Please sign in again.' : undefined);
    request.user = user;
    const { id } = request.params as { id?: string };
    if (id !== undefined) rows.set(request, await uploads.ownedBy(user, id));
    else if (request.method === 'POST') await uploads.mayCreate(user, uploadLength(request));
  };

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const row = rows.get(request);
    // Once the last byte is in, the row answers: the bytes go with the ingest.
    if (row && row.status !== 'receiving') return answerFromRow(request, reply, row, uploads);
    if (row && request.method === 'DELETE') return terminate(reply, row, uploads, tus);
    reply.hijack();
    if (request.user) tusRequestUsers.set(request.raw, request.user);
    if (row) tusRequestUploadIds.set(request.raw, row.id);
    try {
      const failure = await tus.handle(request.raw, reply.raw);
      if (failure) request.log.error({ err: failure }, 'the tus server failed');
    } catch (err) {
      request.log.error({ err }, 'the tus server failed');
      if (reply.raw.headersSent) reply.raw.destroy();
      else reply.raw.writeHead(500, { ...TUS_VERSION_HEADER, 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(errorBody('Something went wrong on our side. Please try again.')));
    }
  };

  await app.register(async (scope) => {
    // The body is tus's to read, as a stream: no parser, no body limit here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const schema = { hide: true };
    scope.route({ method: ['OPTIONS', 'POST'], url: TUS_PATH, schema, onRequest: guard, handler: handle });
    scope.route({ method: ['OPTIONS', 'HEAD', 'PATCH', 'DELETE'], url: `${TUS_PATH}/:id`, schema, onRequest: guard, handler: handle });
  });
}

/** HEAD, PATCH and DELETE of an upload whose bytes are all in (being processed, or done). */
function answerFromRow(request: FastifyRequest, reply: FastifyReply, row: ResumableUploadRow, uploads: ResumableUploadsService) {
  const outcome = uploads.outcomeOf(row);
  reply.headers(TUS_VERSION_HEADER).header('cache-control', 'no-store');
  if (request.method === 'DELETE') {
    // Nothing to abandon any more: a done upload's record is simply forgotten.
    if (row.status === 'done') return uploads.forget(row).then(() => reply.code(204).send());
    return reply.code(204).send();
  }
  reply.header('upload-offset', String(row.size));
  if (request.method === 'HEAD') {
    if (outcome) {
      reply.header(UPLOAD_OUTCOME_HEADERS.status, outcome.status);
      if (outcome.imageId) reply.header(UPLOAD_OUTCOME_HEADERS.imageId, outcome.imageId);
    }
    return reply.code(200).header('upload-length', String(row.size)).send();
  }
  // A PATCH at the end (a client that lost the final answer) is acknowledged; any other offset conflicts.
  if (Number(request.headers['upload-offset']) !== row.size) return reply.code(409).send({ message: 'Upload-Offset conflict: the upload is complete.', msg: 'Upload-Offset conflict.' });
  if (!outcome) return reply.code(204).send();
  const answer = outcomeAnswer(outcome);
  return reply.code(200).headers(answer.headers).send(answer.body);
}

/**
 * tus termination, done here so the upload stops counting against the person before the answer: under
 * tus's lock for the upload (a PATCH still sending is asked to stop), the bytes and the row go.
 */
async function terminate(reply: FastifyReply, row: ResumableUploadRow, uploads: ResumableUploadsService, tus: TusEndpoint) {
  const lock = await tus.lockFor(row.id);
  await lock.lock(AbortSignal.timeout(30_000), () => undefined);
  try {
    await uploads.forget(row);
  } finally {
    await lock.unlock();
  }
  return reply.code(204).headers(TUS_VERSION_HEADER).send();
}

function uploadLength(request: FastifyRequest): number {
  const header = request.headers['upload-length'];
  if (header === undefined) return 0; // tus answers the missing length itself (deferred lengths are not accepted).
  if (typeof header !== 'string' || !/^\d{1,16}$/.test(header)) throw badRequest('Upload-Length must be a whole number of bytes.');
  return Number(header);
}

async function identify(request: FastifyRequest, authenticate: Authenticate): Promise<AuthUser | null> {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ? authenticate(match[1]) : null;
}
