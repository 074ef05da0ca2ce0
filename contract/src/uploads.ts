import { z } from 'zod';
import { defineCall } from './call.js';
import { id } from './common.js';
import { uploadOutcome } from './images.js';

/**
 * Resumable uploads (issue 15, decision 0010): the tus 1.0 protocol at TUS_PATH, one upload per
 * file at `TUS_PATH/<id>`, plus two calls of our own: which contents the caller already has (so
 * their bytes are never sent), and the outcome of a finished upload (for a client that lost the
 * final PATCH's answer).
 */
export const TUS_PATH = '/api/uploads';

/** Hashes one check call may ask about. */
export const MAX_CHECK_FILES = 1000;

/** An upload's id as it appears in its URL (`TUS_PATH/<id>`): 32 lower-case hex digits. */
export const uploadId = z.string().regex(/^[0-9a-f]{32}$/, { message: 'Not an upload id.' });

export const sha256Hex = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.string().regex(/^[0-9a-f]{64}$/, { message: 'Must be a SHA-256 in hex (64 digits).' }));

/**
 * The Upload-Metadata keys the server reads (values base64, as tus says). `filename` is the name
 * shown in the library; `lastModified` is File.lastModified (ms since 1970), the timeline's date for
 * a photo without one of its own; `sha256`, when sent, is checked once the last byte is in, and a
 * file that arrived different is refused.
 */
export const TUS_METADATA = {
  fileName: 'filename',
  fileType: 'filetype',
  lastModified: 'lastModified',
  sha256: 'sha256',
} as const;

/** Response headers of the final PATCH (and of HEAD on a finished upload): the outcome in brief. */
export const UPLOAD_OUTCOME_HEADERS = { status: 'Upload-Outcome', imageId: 'Upload-Image-Id' } as const;

export const checkUploads = defineCall({
  method: 'POST', path: '/api/uploads/check', tag: 'uploads', access: 'user',
  summary:
    'Which of these contents (SHA-256 and size) the caller already has in their library — their own uploads, ready or being ' +
    'processed, not the Trash — so a client sends only the others. Contents only other people uploaded are never reported',
  body: z.object({
    files: z.array(z.object({ sha256: sha256Hex, size: z.number().int().min(0) })).min(1).max(MAX_CHECK_FILES),
  }),
  response: z.object({ known: z.array(z.object({ sha256: z.string(), imageId: id })) }),
});

export const getUploadOutcome = defineCall({
  method: 'GET', path: '/api/uploads/:id/outcome', tag: 'uploads', access: 'user',
  summary:
    'The outcome (kept, duplicate or refused, with the reason) of one of the caller\'s resumable uploads once its last byte ' +
    'arrived and it was processed. 409 while it is not: with Retry-After while it is being processed, without while bytes are ' +
    'missing (resume the upload). 404 for an unknown id or someone else\'s',
  params: z.object({ id: uploadId }),
  response: uploadOutcome,
});

/** How the tus endpoint is described in the OpenAPI document (the protocol itself is tus 1.0). */
export interface TusMethodDoc {
  method: 'OPTIONS' | 'POST' | 'HEAD' | 'PATCH' | 'DELETE';
  path: typeof TUS_PATH | `${typeof TUS_PATH}/{id}`;
  summary: string;
  /** Request headers, by name: what each carries; `required` when the server insists. */
  headers: Record<string, { description: string; required?: boolean }>;
  /** Answers by status: what each means, and the headers it carries. */
  responses: Record<string, { description: string; headers?: string[] }>;
  /** Sent without a token (discovery). */
  public?: boolean;
  body?: string;
}

const tusResumable = { 'Tus-Resumable': { description: 'The protocol version: 1.0.0', required: true } };

export const TUS_METHODS: TusMethodDoc[] = [
  {
    method: 'OPTIONS', path: TUS_PATH, public: true,
    summary: 'tus discovery: the protocol version, extensions (creation, creation-with-upload, termination, expiration) and the largest file',
    headers: {},
    responses: { '204': { description: 'What the server supports', headers: ['Tus-Version', 'Tus-Extension', 'Tus-Max-Size'] } },
  },
  {
    method: 'POST', path: TUS_PATH,
    summary: 'Creates an upload for one file (tus creation; creation-with-upload may carry the first bytes). Answers its URL in Location',
    headers: {
      ...tusResumable,
      'Upload-Length': { description: 'The file\'s size in bytes (deferred lengths are not accepted); at most MAX_UPLOAD_MB', required: true },
      'Upload-Metadata': { description: `Comma-separated "key base64(value)" pairs: ${Object.values(TUS_METADATA).join(', ')} (see decision 0010)` },
      'Content-Type': { description: 'application/offset+octet-stream when the request carries bytes' },
    },
    body: 'Optionally the first bytes of the file (application/offset+octet-stream)',
    responses: {
      '201': { description: 'Created; an empty file is answered at once like a finished one', headers: ['Location', 'Upload-Offset', 'Upload-Expires'] },
      '400': { description: 'No Upload-Length, or bad metadata' },
      '401': { description: 'No valid session' },
      '413': { description: 'Larger than MAX_UPLOAD_MB' },
      '429': { description: 'Too many unfinished uploads (count or bytes) for this person; finish or delete some first', headers: ['Retry-After'] },
    },
  },
  {
    method: 'HEAD', path: `${TUS_PATH}/{id}`,
    summary: 'How many bytes the server has: resume from Upload-Offset. A finished upload answers its full length and its outcome',
    headers: tusResumable,
    responses: {
      '200': { description: 'The upload\'s state', headers: ['Upload-Offset', 'Upload-Length', 'Upload-Metadata', 'Upload-Expires', 'Cache-Control', 'Upload-Outcome', 'Upload-Image-Id'] },
      '404': { description: 'No such upload of yours (unknown, someone else\'s, or expired)' },
    },
  },
  {
    method: 'PATCH', path: `${TUS_PATH}/{id}`,
    summary: 'Sends bytes from Upload-Offset on. The request that brings the last byte is answered once the file is processed: 200 with the outcome as JSON',
    headers: {
      ...tusResumable,
      'Upload-Offset': { description: 'Where these bytes start; must equal the server\'s offset', required: true },
      'Content-Type': { description: 'application/offset+octet-stream', required: true },
    },
    body: 'The next bytes of the file (application/offset+octet-stream)',
    responses: {
      '200': { description: 'The last byte arrived: the file\'s outcome (fileName, status, reason, imageId) as JSON', headers: ['Upload-Offset', 'Upload-Outcome', 'Upload-Image-Id'] },
      '204': { description: 'Bytes taken; more are expected', headers: ['Upload-Offset', 'Upload-Expires'] },
      '404': { description: 'No such upload of yours' },
      '409': { description: 'Upload-Offset is not the server\'s offset: ask with HEAD' },
      '410': { description: 'The upload expired' },
    },
  },
  {
    method: 'DELETE', path: `${TUS_PATH}/{id}`,
    summary: 'Abandons an upload (tus termination): its bytes are removed',
    headers: tusResumable,
    responses: { '204': { description: 'Gone' }, '404': { description: 'No such upload of yours' } },
  },
];
