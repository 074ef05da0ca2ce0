import { TUS_PATH, UPLOAD_OUTCOME_HEADERS, type UploadOutcome } from '@photo/contract';
import { vi } from 'vitest';

type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

export type StoredUpload = { id: string; size: number; offset: number; metadata: Record<string, string> };

/** What the server makes of a PATCH: answer it now (the default), hold it for the test, or drop the connection. */
export type PatchPlan = 'answer' | 'hold' | { fail: 'network' | number; keepBytes?: number };

/**
 * A tus 1.0 server behind a stand-in XMLHttpRequest (jsdom's would try the network): the network
 * edge of the upload page. It keeps uploads, answers POST/HEAD/PATCH/DELETE as the real one does,
 * ends an upload with its outcome, and lets a test hold, fail or count requests.
 */
export class FakeTusServer {
  readonly uploads = new Map<string, StoredUpload>();
  readonly requests: FakeTusXhr[] = [];
  /** The outcome of a completed upload; kept by default. */
  outcome: (upload: StoredUpload) => Omit<UploadOutcome, 'fileName'> = () => ({ status: 'kept', imageId: '1' });
  /** Answers POST /api/uploads before anything is created (e.g. 413), when it returns one. */
  refuseCreation: (metadata: Record<string, string>, size: number) => Answer | undefined = () => undefined;
  patchPlan: (request: FakeTusXhr) => PatchPlan = () => 'answer';
  private nextId = 1;

  /** Requests of one method, in order. */
  sent(method: string): FakeTusXhr[] {
    return this.requests.filter((request) => request.method === method);
  }

  /** Requests sent but not yet answered (held, or on their way). */
  pending(): FakeTusXhr[] {
    return this.requests.filter((request) => request.state === 'open');
  }

  /** An upload as an earlier page left it: stored here with `offset` bytes. */
  seed(metadata: Record<string, string>, size: number, offset: number): StoredUpload {
    const upload = { id: (this.nextId++).toString(16).padStart(32, '0'), size, offset, metadata };
    this.uploads.set(upload.id, upload);
    return upload;
  }

  handle(request: FakeTusXhr): void {
    const id = request.url.split('/').pop() ?? '';
    const upload = this.uploads.get(id);
    if (request.method === 'POST') return this.create(request);
    if (!upload) return request.respond({ status: 404, body: { message: 'There is no such upload of yours.' } });
    if (request.method === 'HEAD') return request.respond({ status: 200, headers: { 'Upload-Offset': String(upload.offset), 'Upload-Length': String(upload.size) } });
    if (request.method === 'DELETE') {
      this.uploads.delete(id);
      return request.respond({ status: 204 });
    }
    const plan = this.patchPlan(request);
    if (plan === 'hold') return;
    if (plan !== 'answer') {
      upload.offset += Math.min(plan.keepBytes ?? 0, request.bodySize);
      return plan.fail === 'network' ? request.failNetwork() : request.respond({ status: plan.fail, body: { message: 'Server trouble.' } });
    }
    this.receive(request, upload);
  }

  /** Takes a held (or any) PATCH's bytes and answers it. */
  receive(request: FakeTusXhr, upload = this.uploads.get(request.url.split('/').pop() ?? '')!): void {
    const offset = Number(request.headers['Upload-Offset']);
    if (offset !== upload.offset) return request.respond({ status: 409, body: { message: 'Upload-Offset conflict.' } });
    upload.offset += request.bodySize;
    if (upload.offset < upload.size) return request.respond({ status: 204, headers: { 'Upload-Offset': String(upload.offset) } });
    const outcome = { fileName: upload.metadata['filename'] ?? 'image', ...this.outcome(upload) };
    request.respond({
      status: 200,
      headers: { 'Upload-Offset': String(upload.offset), [UPLOAD_OUTCOME_HEADERS.status]: outcome.status },
      body: outcome,
    });
  }

  private create(request: FakeTusXhr): void {
    const metadata = Object.fromEntries(
      (request.headers['Upload-Metadata'] ?? '')
        .split(',')
        .filter(Boolean)
        .map((pair) => {
          const [key, value = ''] = pair.trim().split(' ');
          return [key!, new TextDecoder().decode(Uint8Array.from(atob(value), (c) => c.charCodeAt(0)))];
        }),
    );
    const size = Number(request.headers['Upload-Length']);
    const refusal = this.refuseCreation(metadata, size);
    if (refusal) return request.respond(refusal);
    const upload = this.seed(metadata, size, 0);
    request.respond({ status: 201, headers: { Location: `${TUS_PATH}/${upload.id}`, 'Upload-Offset': '0' } });
  }
}

/** The XMLHttpRequest tus-js-client drives, answered by a FakeTusServer. */
export class FakeTusXhr {
  static server: FakeTusServer;

  method = '';
  url = '';
  headers: Record<string, string> = {};
  bodySize = 0;
  state: 'new' | 'open' | 'answered' | 'aborted' | 'failed' = 'new';
  status = 0;
  responseText = '';
  private responseHeaders: Record<string, string> = {};
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: ((error: unknown) => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }

  send(body: Blob | null) {
    this.bodySize = body?.size ?? 0;
    this.state = 'open';
    FakeTusXhr.server.requests.push(this);
    // Answered after the sender has set its handlers, as a real request is.
    setTimeout(() => FakeTusXhr.server.handle(this), 0);
  }

  abort() {
    if (this.state === 'open') this.state = 'aborted';
  }

  /** Reports `loaded` bytes of the body sent. */
  progress(loaded: number) {
    this.upload.onprogress?.({ loaded, total: this.bodySize, lengthComputable: true } as ProgressEvent);
  }

  respond({ status, headers = {}, body }: Answer) {
    if (this.state !== 'open') return;
    this.state = 'answered';
    this.status = status;
    this.responseHeaders = Object.fromEntries(Object.entries({ 'Tus-Resumable': '1.0.0', ...headers }).map(([key, value]) => [key.toLowerCase(), value]));
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    if (this.method === 'PATCH' && this.bodySize > 0) this.progress(this.bodySize);
    this.onload?.();
  }

  failNetwork() {
    if (this.state !== 'open') return;
    this.state = 'failed';
    this.onerror?.(new Error('network'));
  }
}

/** Serves tus uploads for one test; returns the server to inspect and steer. */
export function stubTusServer(): FakeTusServer {
  const server = new FakeTusServer();
  FakeTusXhr.server = server;
  vi.stubGlobal('XMLHttpRequest', FakeTusXhr);
  return server;
}

/** An upload an earlier page left unfinished, as tus-js-client remembers it in localStorage. */
export function rememberUpload(fingerprint: string, upload: StoredUpload, creationTime = new Date().toString()): void {
  const value = { size: upload.size, metadata: upload.metadata, creationTime, uploadUrl: `http://localhost:3000${TUS_PATH}/${upload.id}`, parallelUploadUrls: null };
  window.localStorage.setItem(`tus::${fingerprint}::${Math.round(Math.random() * 1e12)}`, JSON.stringify(value));
}
