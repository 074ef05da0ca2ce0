import { vi } from 'vitest';

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

/**
 * A stand-in for XMLHttpRequest (jsdom's would try the network). Each sent request is kept in
 * `requests`; a test reports upload progress and answers it, or gives `answer` to answer at once.
 */
export class FakeXhr {
  static requests: FakeXhr[] = [];
  static answer: ((request: FakeXhr) => Answer | undefined) | undefined;

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  responseHeaders: Record<string, string> = {};
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  send(body: FormData) {
    this.body = body;
    FakeXhr.requests.push(this);
    const answer = FakeXhr.answer?.(this);
    if (answer) setTimeout(() => this.respond(answer.status, answer.body, answer.headers), 0);
  }

  abort() {
    this.onabort?.();
  }

  /** The names of the files in the request's repeated `images` field. */
  fileNames(field = 'images'): string[] {
    return (this.body?.getAll(field) ?? []).map((file) => (file as File).name);
  }

  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true } as ProgressEvent);
  }

  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }

  respond(status: number, body?: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.responseHeaders = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.onload?.();
  }

  failNetwork() {
    this.onerror?.();
  }
}

/** Replaces XMLHttpRequest for one test; returns the class to read its requests. */
export function stubXhr(answer?: (request: FakeXhr) => Answer | undefined): typeof FakeXhr {
  FakeXhr.requests = [];
  FakeXhr.answer = answer;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return FakeXhr;
}
