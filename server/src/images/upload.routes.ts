import multipart from '@fastify/multipart';
import { calls } from '@photo/contract';
import type { FastifyInstance } from 'fastify';
import { rm } from 'node:fs/promises';
import { AppError, badRequest } from '../http/errors.js';
import { type Authenticate, registerCall } from '../http/route.js';
import type { IngestOutcome, IngestService } from './ingest/ingest.service.js';
import { receiveFile } from './ingest/receive-file.js';
import { MAX_FILES_PER_REQUEST } from './limits.js';

/**
 * Multipart parsing for the upload calls. Files are streamed by the handlers; a file over the size
 * limit is cut off and reported in its outcome instead of failing the whole request.
 */
export async function registerMultipart(app: FastifyInstance, maxFileBytes: number): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: maxFileBytes, files: MAX_FILES_PER_REQUEST, fields: 20, parts: MAX_FILES_PER_REQUEST + 20 },
    throwFileSizeLimit: false,
  });
}

/**
 * `POST /bulk-upload`: files are read one after another from the multipart stream, each streamed
 * to a temporary file; while the next file arrives, the previous ones are already being processed
 * (in the bounded pool). The answer lists every file's outcome once all are done.
 */
export function registerUploadRoutes(
  app: FastifyInstance,
  authenticate: Authenticate,
  ingest: IngestService,
  options: { tempDir: string; maxFileBytes: number },
): void {
  registerCall(app, authenticate, calls.bulkUpload, async ({ user, request }) => {
    if (!request.isMultipart()) throw new AppError(415, 'Send the images as multipart/form-data in the field "images".');
    const outcomes: Promise<IngestOutcome>[] = [];
    try {
      for await (const part of request.files()) {
        const received = await receiveFile(part.file, options.tempDir);
        const name = part.filename || 'image';
        if (part.file.truncated) {
          outcomes.push(
            removeAnd(received.tempPath, {
              fileName: name,
              status: 'refused',
              refusal: 'too-large',
              reason: `The file is larger than the ${Math.round(options.maxFileBytes / 1048576)} MB limit.`,
            }),
          );
          continue;
        }
        const outcome = ingest.ingest(user, name, received);
        outcome.catch(() => undefined); // awaited below; no unhandled rejection if the request dies first
        outcomes.push(outcome);
      }
    } finally {
      // Even when the request breaks off, files already received are finished (kept or cleaned up).
      await Promise.allSettled(outcomes);
    }
    const results = await Promise.all(outcomes);
    if (results.length === 0) throw badRequest('Please select images to upload.');
    return answer(results);
  });
}

function answer(results: IngestOutcome[]) {
  const kept = results.filter((r) => r.status !== 'refused').length;
  const refused = results.length - kept;
  const publicResults = results.map(({ refusal: _refusal, ...result }) => result);
  if (kept === 0) {
    // Nothing taken: the status says why (DECISIONS §6), and every file's reason is in the body.
    const kinds = new Set(results.map((r) => r.refusal));
    const status = kinds.size === 1 && kinds.has('not-an-image') ? 415 : kinds.size === 1 && kinds.has('too-large') ? 413 : 400;
    const message = results.length === 1 ? (results[0]?.reason ?? 'The image was refused.') : `None of the ${results.length} files could be uploaded.`;
    throw new AppError(status, message, {}, { results: publicResults });
  }
  const message =
    refused === 0
      ? `${kept} ${kept === 1 ? 'image' : 'images'} uploaded successfully.`
      : `${kept} ${kept === 1 ? 'image' : 'images'} uploaded; ${refused} refused.`;
  return { message, results: publicResults };
}

async function removeAnd(tempPath: string, outcome: IngestOutcome): Promise<IngestOutcome> {
  await rm(tempPath, { force: true });
  return outcome;
}
