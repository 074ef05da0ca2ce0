import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { UploadOutcome } from '@photo/contract';
import type { FastifyRequest } from 'fastify';
import { rm } from 'node:fs/promises';
import type { AuthUser } from '../auth/auth-user.js';
import { clientWentAway, multipartMessages, multipartProblem } from '../http/errors.js';
import { MAX_FILES_PER_REQUEST, MAX_PARTS_PER_REQUEST } from '../images/limits.js';
import { cleanFileName, type IngestService, type RefusalKind } from './ingest.service.js';
import { type ReceivedFile, receiveFile, TempWriteError } from './receive-file.js';
import type { FileSlot, UploadTicket } from './upload-capacity.js';

/**
 * Why a file was refused, kept so the answer's status can follow it: ingest's kinds, plus
 * `over-limit` (past the files or bytes one request may carry), `incomplete` (the body ended, or the
 * connection closed, in the middle of it) and `not-stored` (storage or database trouble: try again).
 */
export type FileRefusal = RefusalKind | 'over-limit' | 'incomplete' | 'not-stored';

export type FileOutcome = UploadOutcome & { refusal?: FileRefusal };

const NOT_STORED_REASON = 'The file could not be stored; please try again.';

/** Why the rest of an upload's body could not be read. */
export type StopKind =
  | 'no-boundary'
  | 'boundary-not-found'
  | 'ended-early'
  | 'malformed'
  | 'too-many-parts'
  | 'too-many-fields'
  | 'request-too-large'
  | 'client-idle'
  | 'client-gone'
  | 'internal';

export interface UploadStop {
  kind: StopKind;
  /** The status of the answer when no file was kept (with a file kept it is 200 and this is a note). */
  status: number;
  message: string;
}

export interface BulkUploadResult {
  outcomes: FileOutcome[];
  stopped?: UploadStop;
}

/** Our own reasons to stop reading, raised through the abort signal. */
class UploadStopped extends Error {
  constructor(readonly kind: 'request-too-large' | 'client-idle' | 'client-gone') {
    super(kind);
  }
}

const mb = (bytes: number) => Math.round(bytes / 1048576).toLocaleString('en-US');

/**
 * Reads one POST /bulk-upload body, file by file, to every file's outcome. Each file waits for a
 * slot (UploadCapacity) before its first byte is read, is streamed to a temporary file, then handed
 * to ingest while the next file arrives. Whatever happens — a file over a limit, a failed write,
 * a malformed or cut-off body, the per-request byte limit — the files received so far are
 * finished and listed; only the reading stops, and `stopped` says why.
 */
export class BulkUpload {
  private readonly outcomes: Promise<FileOutcome>[] = [];
  private readonly stop = new AbortController();
  private files = 0;
  private sawPart = false;
  /** The `lastModified` field sent just before the next file (ms since 1970, as File.lastModified). */
  private lastModified: string | undefined;
  /** Runs while the server waits for the client's bytes (not while it holds the client back itself). */
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      request: FastifyRequest;
      user: AuthUser;
      ticket: UploadTicket;
      ingest: IngestService;
      tempDir: string;
      maxFileBytes: number;
      maxRequestBytes: number;
      idleTimeoutMs: number;
    },
  ) {}

  async read(): Promise<BulkUploadResult> {
    const { request } = this.deps;
    const raw = request.raw;
    const parts = request.parts()[Symbol.asyncIterator]();
    // The first next() pipes the body into busboy; only then may bytes be counted without changing the flow.
    let next = parts.next();
    const stopCounting = this.countBytes();
    const onClose = () => {
      if (!raw.complete) this.stop.abort(new UploadStopped('client-gone'));
    };
    raw.once('close', onClose);
    this.watchIdle(true);
    let stopped: UploadStop | undefined;
    try {
      for (;;) {
        const part = await this.untilStopped(next);
        if (part.done) break;
        if (part.value.type === 'field') this.note(part.value);
        else await this.take(part.value);
        next = parts.next();
      }
    } catch (error) {
      stopped = this.describe(error);
      if (stopped.kind === 'internal') request.log.error({ err: error }, 'reading an upload failed');
      // A cancelled upload or a lost network: worth a line, not a stack trace.
      if (stopped.kind === 'client-gone') request.log.info({ files: this.files }, 'the client closed the connection before its upload was complete');
    } finally {
      this.watchIdle(false);
      stopCounting();
      raw.off('close', onClose);
    }
    // Files already received are finished (kept or cleaned up) before the answer.
    return { outcomes: await Promise.all(this.outcomes), ...(stopped ? { stopped } : {}) };
  }

  /** A text field: `lastModified` applies to the file that follows it; others are ignored. */
  private note(field: MultipartValue): void {
    if (field.fieldname === 'lastModified') this.lastModified = typeof field.value === 'string' ? field.value : undefined;
  }

  private async take(part: MultipartFile): Promise<void> {
    this.sawPart = true;
    this.files += 1;
    const name = part.filename || 'image';
    const lastModified = this.lastModified;
    this.lastModified = undefined;
    const signal = this.stop.signal;
    if (this.files > MAX_FILES_PER_REQUEST) {
      this.refuse(
        name,
        'over-limit',
        `Over the limit of ${MAX_FILES_PER_REQUEST.toLocaleString('en-US')} files in one upload; send this file again in another batch.`,
      );
      await this.discard(part);
      return;
    }
    let slot: FileSlot;
    try {
      // Not reading is our doing here (back-pressure), so the client is not idle meanwhile.
      this.watchIdle(false);
      slot = await this.deps.ticket.slot(signal);
      this.watchIdle(true);
    } catch (error) {
      this.refuseStopped(name, error);
      throw error;
    }
    let received;
    try {
      received = await receiveFile(part.file, this.deps.tempDir, { signal });
    } catch (error) {
      slot.release();
      if (!(error instanceof TempWriteError)) {
        this.refuseStopped(name, error);
        throw error;
      }
      this.deps.request.log.error({ err: error.cause }, 'an upload could not be written to DATA_DIR/tmp');
      this.refuse(name, 'not-stored', NOT_STORED_REASON);
      return;
    }
    if (part.file.truncated) {
      await removeTemp(received.tempPath);
      slot.release();
      this.refuse(name, 'too-large', `The file is larger than the ${mb(this.deps.maxFileBytes)} MB limit.`);
      return;
    }
    this.outcomes.push(this.ingest(name, received, lastModified).finally(() => slot.release()));
  }

  /** Whatever goes wrong with this one file (storage, database) becomes its outcome, never the whole answer's. */
  private async ingest(name: string, received: ReceivedFile, lastModified: string | undefined): Promise<FileOutcome> {
    try {
      return await this.deps.ingest.ingest(this.deps.user, name, received, { lastModified });
    } catch (err) {
      this.deps.request.log.error({ err, fileName: name }, 'an upload could not be stored');
      await removeTemp(received.tempPath);
      return { fileName: cleanFileName(name), status: 'refused', reason: NOT_STORED_REASON, refusal: 'not-stored' };
    }
  }

  /** A file past the per-request maximum: read to its end (counted against the request's bytes) and dropped. */
  private async discard(part: MultipartFile): Promise<void> {
    const signal = this.stop.signal;
    const stop = () => part.file.destroy(signal.reason instanceof Error ? signal.reason : undefined);
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const _chunk of part.file) {
        // dropped
      }
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  private refuse(fileName: string, refusal: FileRefusal, reason: string): void {
    this.outcomes.push(Promise.resolve({ fileName: cleanFileName(fileName), status: 'refused', reason, refusal }));
  }

  /** The file being read when the reading stopped. */
  private refuseStopped(fileName: string, error: unknown): void {
    const kind = this.describe(error).kind;
    if (kind === 'request-too-large') {
      this.refuse(fileName, 'over-limit', `The upload went over its ${mb(this.deps.maxRequestBytes)} MB limit during this file; send it again in another batch.`);
    } else if (kind === 'client-gone') {
      this.refuse(fileName, 'incomplete', 'The connection closed before this file was complete.');
    } else if (kind === 'client-idle') {
      this.refuse(fileName, 'incomplete', 'The upload stalled during this file; send it again.');
    } else if (kind === 'internal') {
      this.refuse(fileName, 'not-stored', NOT_STORED_REASON);
    } else {
      this.refuse(fileName, 'incomplete', 'The upload ended before this file was complete.');
    }
  }

  /** Every byte of the body counts, also those busboy skips (the rest of an over-size file, parts it ignores). */
  private countBytes(): () => void {
    const raw = this.deps.request.raw;
    let seen = 0;
    const onData = (chunk: Buffer) => {
      this.idle?.refresh();
      seen += chunk.length;
      if (seen > this.deps.maxRequestBytes) {
        raw.off('data', onData);
        this.stop.abort(new UploadStopped('request-too-large'));
      }
    };
    raw.on('data', onData);
    return () => raw.off('data', onData);
  }

  private watchIdle(on: boolean): void {
    clearTimeout(this.idle);
    this.idle = on && !this.deps.request.raw.complete ? setTimeout(() => this.stop.abort(new UploadStopped('client-idle')), this.deps.idleTimeoutMs) : undefined;
    this.idle?.unref();
  }

  /** The next part, unless the reading was stopped first (busboy may be skipping bytes, with no part to interrupt). */
  private untilStopped<T>(next: Promise<T>): Promise<T> {
    const signal = this.stop.signal;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      next.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  private describe(error: unknown): UploadStop {
    const limit = (kind: StopKind, message: string): UploadStop => ({ kind, status: 413, message });
    const malformed = (kind: StopKind, message: string): UploadStop => ({ kind, status: 400, message });
    if (error instanceof UploadStopped) {
      if (error.kind === 'request-too-large') {
        return limit('request-too-large', `The upload is larger than the ${mb(this.deps.maxRequestBytes)} MB limit for one request; send the other files in another batch.`);
      }
      if (error.kind === 'client-idle') {
        const seconds = Math.round(this.deps.idleTimeoutMs / 1000);
        return { kind: 'client-idle', status: 408, message: `The upload sent nothing for ${seconds} s and was stopped; send the files not listed as kept again.` };
      }
      return malformed('client-gone', 'The connection closed before the upload was complete.');
    }
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT') {
      return limit('too-many-parts', `The upload stopped after ${MAX_PARTS_PER_REQUEST.toLocaleString('en-US')} parts; send the other files in another batch.`);
    }
    if (code === 'FST_FIELDS_LIMIT') return limit('too-many-fields', 'The upload has too many form fields; send the files in the field "images", each after at most one "lastModified".');
    // The connection closed: Node's "aborted" (ECONNRESET) usually reaches the parts before the request's `close` does.
    if (code === 'FST_MP_PREMATURE_CLOSE' || code === 'ERR_STREAM_PREMATURE_CLOSE' || clientWentAway(this.deps.request.raw, error)) {
      return malformed('client-gone', 'The connection closed before the upload was complete.');
    }
    const problem = multipartProblem(error);
    if (problem === 'no-boundary') return malformed('no-boundary', multipartMessages.noBoundary);
    if (problem === 'unexpected-end' && !this.sawPart) return malformed('boundary-not-found', multipartMessages.boundaryNotFound);
    if (problem) return malformed('ended-early', multipartMessages.endedEarly);
    // The multipart plugin's other client errors (a forbidden field name, a bad JSON field).
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500 && error instanceof Error) return malformed('malformed', error.message);
    return { kind: 'internal', status: 500, message: 'The upload stopped because of a problem on our side; please send the files not listed as kept again.' };
  }
}

/** Removing a temporary file never decides an outcome (DATA_DIR/tmp is emptied at start anyway). */
function removeTemp(tempPath: string): Promise<void> {
  return rm(tempPath, { force: true }).catch(() => undefined);
}
