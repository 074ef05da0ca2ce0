import { calls, TUS_METADATA, TUS_PATH } from '@photo/contract';
import { parseJsonText, settleAnswer } from '@/lib/api-client';
import { getToken } from '@/lib/auth-token';
import { DetailedError, Upload, type HttpResponse } from './tus-client';
import { discardUploadsOf, fingerprintOf } from './unfinished-uploads';
import { outcomeFromResponse, waitForOutcome, type FileOutcome } from './upload-outcome';

/** Bytes per PATCH: each request ends where the server has stored everything before it. */
export const CHUNK_BYTES = 16 * 1024 * 1024;

/**
 * Waits before each new try after a request failed: quick at first, then up to a minute; about five
 * minutes in all. The count starts again whenever bytes get through.
 */
export const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 45_000, 60_000, 60_000, 60_000];

export type TransferEvents = {
  /** How much of the file the server has or is receiving, in bytes from its start. */
  onProgress: (bytes: number) => void;
  /** The server says it has this much (asked before continuing after a failure, a pause or a reload). */
  onOffset: (bytes: number) => void;
  /** The file continues an upload an earlier page started. */
  onResumed: () => void;
  /** A request failed: waiting to try again, or for the network to come back. */
  onWaiting: (why: 'retrying' | 'offline') => void;
};

export type Transfer = { done: Promise<FileOutcome>; pause: () => void; resume: () => void };

/** The upload cannot go on (the network or the server stayed away, or the session ended): later files wait too. */
export class TransferStopped extends Error {
  override readonly name = 'TransferStopped';
}

/** Failures worth another try: no answer, the server's trouble, an offset to ask again, or "busy". */
function isRetryable(status: number): boolean {
  return status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
}

function statusOf(error: Error): number | undefined {
  return error instanceof DetailedError && error.originalRequest ? (error.originalResponse?.getStatus() ?? 0) : undefined;
}

function messageOf(response: HttpResponse | null): string {
  const body = response?.getBody() ?? '';
  const json = parseJsonText(body) as { message?: unknown } | undefined;
  if (typeof json?.message === 'string') return json.message;
  return body.trim().slice(0, 300) || `The server refused the file (${response?.getStatus() ?? 0}).`;
}

const uploadIdOf = (url: string | null) => url?.split('/').pop()?.split('?')[0] ?? '';

/**
 * Sends one file as its own tus upload (TUS_PATH), continuing an upload of the same file an earlier
 * page left unfinished. Retries with back-off on its own, waits for the network while the browser is
 * offline, and ends with the server's verdict on the file (or TransferStopped).
 */
export function sendFile(file: File, { sha256, owner }: { sha256: string; owner: string }, events: TransferEvents): Transfer {
  let resolve!: (outcome: FileOutcome) => void;
  let reject!: (error: Error) => void;
  const done = new Promise<FileOutcome>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  let paused = false;
  let ready = false;
  let waiting = false;
  let startedAfresh = false;
  let sentToken: string | null = null;
  let upload: Upload;
  const content = { sha256, size: file.size };

  // Back online: go on at once, rather than after a back-off that may have grown to a minute.
  const onOnline = () => {
    if (!waiting || paused) return;
    waiting = false;
    // abort() clears a try that is only scheduled; start() asks the server where to continue.
    void upload.abort().then(() => {
      if (!paused) upload.start();
    });
  };
  window.addEventListener('online', onOnline);
  const finish = (settle: () => void) => {
    window.removeEventListener('online', onOnline);
    settle();
  };

  const onError = (error: Error) => {
    const status = statusOf(error);
    if (status === 0 && !navigator.onLine) {
      waiting = true;
      events.onWaiting('offline');
      return; // `online` continues it
    }
    if (status === undefined) return finish(() => resolve({ status: 'failed', reason: 'The file could not be read.' }));
    if (status === 401 || status === 403) {
      // The session rule of every call (spec §8): the api-client clears the token and opens sign-in.
      try {
        settleAnswer(calls.getUploadOutcome, TUS_PATH, status, null, sentToken);
      } catch {
        // the ApiError is expected; the run stops below
      }
      return finish(() => reject(new TransferStopped('The session ended.')));
    }
    if ((status === 404 || status === 410) && !startedAfresh) {
      // The server no longer has this upload (expired): once more, from the first byte.
      startedAfresh = true;
      void discardUploadsOf(content, owner).then(() => {
        upload = create();
        if (!paused) upload.start();
      });
      return;
    }
    if (!isRetryable(status)) return finish(() => resolve({ status: 'refused', reason: messageOf((error as DetailedError).originalResponse) }));
    finish(() => reject(new TransferStopped(error.message)));
  };

  const create = () =>
    new Upload(file, {
      // Absolute, as tus-js-client resolves the upload's Location against it.
      endpoint: new URL(TUS_PATH, window.location.origin).href,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS_MS,
      metadata: {
        [TUS_METADATA.fileName]: file.name,
        [TUS_METADATA.fileType]: file.type,
        [TUS_METADATA.lastModified]: String(file.lastModified),
        [TUS_METADATA.sha256]: sha256,
      },
      fingerprint: () => Promise.resolve(fingerprintOf(content, owner)),
      removeFingerprintOnSuccess: true,
      onBeforeRequest: (request) => {
        // Read per request: the token may change while a long upload runs.
        sentToken = getToken();
        if (sentToken) request.setHeader('Authorization', `Bearer ${sentToken}`);
      },
      onAfterResponse: (request, response) => {
        if (request.getMethod() === 'HEAD' && response.getStatus() === 200) events.onOffset(Number(response.getHeader('Upload-Offset')) || 0);
      },
      onProgress: (bytes) => {
        waiting = false;
        events.onProgress(bytes);
      },
      onShouldRetry: (error) => {
        const status = statusOf(error) ?? -1;
        // Offline: no point in counting tries; `online` continues it (see onError).
        if (!isRetryable(status) || !navigator.onLine) return false;
        waiting = true;
        events.onWaiting('retrying');
        return true;
      },
      onSuccess: ({ lastResponse }) => {
        const outcome = outcomeFromResponse(lastResponse);
        const settled = outcome ? Promise.resolve(outcome) : waitForOutcome(uploadIdOf(upload.url));
        void settled.then(
          (value) => finish(() => resolve(value)),
          (error: unknown) => finish(() => reject(new TransferStopped(String(error)))),
        );
      },
      onError,
    });

  upload = create();
  void upload
    .findPreviousUploads()
    .catch(() => [])
    .then((previous) => {
      const latest = previous.sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];
      if (latest) {
        upload.resumeFromPreviousUpload(latest);
        events.onResumed();
      }
      ready = true;
      if (!paused) upload.start();
    });

  return {
    done,
    pause: () => {
      if (paused) return;
      paused = true;
      waiting = false;
      if (ready) void upload.abort();
    },
    resume: () => {
      if (!paused) return;
      paused = false;
      if (ready) upload.start();
    },
  };
}
