import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

/**
 * An error a person can act on. Services throw these; the one error handler below turns them
 * into DECISIONS §6 responses: JSON with `message` (and `msg`, which some screens read).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** More fields for the body, e.g. every file's outcome of a refused upload. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = 'Please sign in to continue.') => new AppError(401, message);
export const notFound = (message = 'Not found.') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

interface ErrorBody {
  message: string;
  msg: string;
  issues?: { path: string; message: string }[];
}

/** The body of every error answer (also those of the tus endpoint, which answers outside this handler). */
export function errorBody(message: string, issues?: ErrorBody['issues']): ErrorBody {
  return issues ? { message, msg: message, issues } : { message, msg: message };
}

/** Fastify's own error codes that are the client's fault, with the status and words to answer. */
const frameworkErrors: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'The request body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'The request body is empty; send a JSON object.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'The request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'This content type is not accepted here; send JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'The Content-Length header does not match the body.'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'Send the images as multipart/form-data.'],
  FST_FILES_LIMIT: [413, 'Too many files in one upload; send them in smaller batches.'],
  FST_PARTS_LIMIT: [413, 'Too many parts in one upload; send the files in smaller batches.'],
  FST_FIELDS_LIMIT: [413, 'Too many form fields in one upload.'],
  FST_PROTO_VIOLATION: [400, 'A form field of the upload has a forbidden name.'],
  FST_MP_PREMATURE_CLOSE: [400, 'The connection closed before the upload was complete.'],
};

/**
 * What is wrong with a malformed multipart body. busboy's errors carry no code, only these words:
 * `unexpected-end` is a body that ended before its closing boundary — or that never contained the
 * boundary its Content-Type names, which busboy cannot tell apart (the upload handler can: it knows
 * whether a part was seen).
 */
export type MultipartProblem = 'no-boundary' | 'unexpected-end' | 'part-ended-early';

export function multipartProblem(error: unknown): MultipartProblem | undefined {
  const message = error instanceof Error ? error.message : '';
  if (message === 'Multipart: Boundary not found' || message === 'Boundary required') return 'no-boundary';
  if (message === 'Unexpected end of multipart data') return 'unexpected-end';
  if (message.endsWith('terminated early due to unexpected end of multipart data')) return 'part-ended-early';
  return undefined;
}

export const multipartMessages = {
  noBoundary: 'The upload is not valid multipart: its Content-Type names no boundary (multipart/form-data; boundary=…).',
  boundaryNotFound: 'The upload is not valid multipart: the boundary its Content-Type names never appears in the body.',
  endedEarly: 'The upload ended early: the multipart body stops before its closing boundary.',
  endedEarlyOrNoBoundary:
    'The upload is not valid multipart: the body stops before its closing boundary, or never contains the boundary its Content-Type names.',
} as const;

function multipartProblemMessage(problem: MultipartProblem): string {
  if (problem === 'no-boundary') return multipartMessages.noBoundary;
  return problem === 'part-ended-early' ? multipartMessages.endedEarly : multipartMessages.endedEarlyOrNoBoundary;
}

/** Error codes of a request body that stopped coming because the connection closed (Node's "aborted" is ECONNRESET). */
const connectionClosedCodes = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'FST_MP_PREMATURE_CLOSE']);

/**
 * The client closed the connection before its request's body was complete: a cancelled upload, a
 * lost network. Nothing went wrong on our side, and no one is left to read an answer. Node tells
 * the body's readers (the multipart parser, a file being received) before the request's `close`.
 */
export function clientWentAway(request: IncomingMessage, error: unknown): boolean {
  return !request.complete && connectionClosedCodes.has(String((error as { code?: unknown } | null)?.code));
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return reply.code(error.statusCode).headers(error.headers).send({ ...errorBody(error.message), ...error.details });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((v) => ({
        path: [error.validationContext, ...v.instancePath.split('/').filter(Boolean)].filter(Boolean).join('.'),
        message: v.message ?? 'is invalid',
      }));
      const first = issues[0];
      const message = first ? `${first.path.replace(/^body\./, '')}: ${first.message}` : 'The request is not valid.';
      return reply.code(400).send(errorBody(message, issues));
    }
    const known = error.code ? frameworkErrors[error.code] : undefined;
    if (known) return reply.code(known[0]).send(errorBody(known[1]));
    const malformed = multipartProblem(error);
    if (malformed) return reply.code(400).send(errorBody(multipartProblemMessage(malformed)));
    if (isForeignKeyViolation(error)) {
      // What the write pointed at (an image, an account) was deleted between the access check and
      // the write: for the person it is gone, exactly as if the check had come a moment later.
      request.log.info({ err: error }, 'a write raced a delete of what it refers to');
      return reply.code(404).send(errorBody('Not found. It may have just been deleted.'));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return reply.code(500).send(errorBody('Something went wrong on our side. Please try again.'));
    }
    if (clientWentAway(request.raw, error)) {
      request.log.info({ method: request.method, url: request.url }, 'the client closed the connection before its request was complete');
      return reply.code(400).send(errorBody('The connection closed before the request was complete.'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(errorBody('Something went wrong on our side. Please try again.'));
    }
    // Other 4xx raised by plugins (e.g. a 413 from a parser) keep their status and their words.
    return reply.code(status).send(errorBody(error.message));
  });
}

/** A write refused because the row it refers to is gone (PostgreSQL 23503, SQLite's FOREIGN KEY constraint). */
function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return e.code === '23503' || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || (typeof e.message === 'string' && e.message.includes('FOREIGN KEY constraint failed'));
}
