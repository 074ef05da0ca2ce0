import multipart from '@fastify/multipart';
import { calls } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../http/errors.js';
import { type Authenticate, registerCall } from '../http/route.js';
import { BulkUpload, type FileOutcome, type FileRefusal, type UploadStop } from './bulk-upload.js';
import type { IngestService } from './ingest.service.js';
import type { UploadCapacity } from './upload-capacity.js';
import { MAX_PARTS_PER_REQUEST } from '../images/limits.js';

/**
 * Multipart parsing for the upload calls. Files are streamed by the handlers; a file over the size
 * limit is cut off and reported in its outcome instead of failing the whole request. Files past the
 * per-request maximum are counted by the handler (and refused by name), so busboy's own limits sit
 * at the number of parts read at all.
 */
export async function registerMultipart(app: FastifyInstance, maxFileBytes: number): Promise<void> {
  await app.register(multipart, {
    // One `lastModified` field may come before each file (decision 0009).
    limits: { fileSize: maxFileBytes, files: MAX_PARTS_PER_REQUEST, fields: MAX_PARTS_PER_REQUEST, parts: MAX_PARTS_PER_REQUEST },
    throwFileSizeLimit: false,
  });
}

/**
 * `POST /bulk-upload`: files are read one after another from the multipart stream, each streamed
 * to a temporary file; while the next file arrives, the previous ones are already being processed
 * (in the bounded pool). The answer lists every file's outcome once all are done (BulkUpload).
 */
export function registerUploadRoutes(
  app: FastifyInstance,
  authenticate: Authenticate,
  ingest: IngestService,
  capacity: UploadCapacity,
  options: { tempDir: string; maxFileBytes: number; maxRequestBytes: number; idleTimeoutMs: number },
): void {
  registerCall(app, authenticate, calls.bulkUpload, async ({ user, request }) => {
    if (!request.isMultipart()) throw new AppError(415, 'Send the images as multipart/form-data in the field "images".');
    const declared = Number(request.headers['content-length']);
    if (declared > options.maxRequestBytes) {
      throw new AppError(
        413,
        `The upload is larger than the ${Math.round(options.maxRequestBytes / 1048576)} MB limit for one request; send the files in smaller batches.`,
        {},
        { results: [] },
      );
    }
    const ticket = capacity.admit(user.id);
    try {
      const { outcomes, stopped } = await new BulkUpload({ request, user, ticket, ingest, ...options }).read();
      return answer(outcomes, stopped);
    } finally {
      ticket.finish();
    }
  });
}

/** The status when nothing was kept, by the kind of refusal (DECISIONS §6). */
const refusalStatus: Record<FileRefusal, number> = {
  'not-an-image': 415,
  'too-large': 413,
  'over-limit': 413,
  unreadable: 400,
  incomplete: 400,
  'not-stored': 503,
};

function answer(results: FileOutcome[], stopped: UploadStop | undefined) {
  const kept = results.filter((r) => r.status !== 'refused').length;
  const refused = results.length - kept;
  const publicResults = results.map(({ refusal: _refusal, ...result }) => result);
  if (kept === 0) {
    // Nothing taken: the status says why, and every file's reason is in the body.
    const statuses = new Set(results.map((r) => refusalStatus[r.refusal ?? 'unreadable']));
    const status = stopped?.status ?? (statuses.size === 1 ? [...statuses][0] : statuses.has(503) ? 503 : 400) ?? 400;
    const message = stopped?.message ?? noneTaken(results);
    throw new AppError(status, message, {}, { results: publicResults });
  }
  const message =
    refused === 0
      ? `${kept} ${kept === 1 ? 'image' : 'images'} uploaded successfully.`
      : `${kept} ${kept === 1 ? 'image' : 'images'} uploaded; ${refused} refused.`;
  return { message: stopped ? `${message} ${stopped.message}` : message, results: publicResults };
}

function noneTaken(results: FileOutcome[]): string {
  if (results.length === 0) return 'Please select images to upload.';
  if (results.length === 1) return results[0]?.reason ?? 'The image was refused.';
  return `None of the ${results.length} files could be uploaded.`;
}
