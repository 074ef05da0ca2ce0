// @ts-check
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Upload } from 'tus-js-client';

/** @typedef {import('./api.js').Outcome} Outcome */
/** @typedef {import('./scan.js').LocalFile} LocalFile */

/** Waits between attempts when the network or the server fails: enough to ride out a restart. */
const RETRY_DELAYS = [500, 1000, 2000, 4000, 8000, 15000, 30000, 30000, 60000];

/** An answer that no retry will change: the server turned the file down (too large, …) or the session ended. */
export class Refusal extends Error {
  /**
   * @param {number} status
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Uploads one file with tus, resuming the upload begun by an earlier run when the state knows
 * its URL (the server says from which byte on), and answers the file's outcome.
 * @param {object} params
 * @param {LocalFile} params.file
 * @param {string} params.server
 * @param {string} params.token
 * @param {import('./state.js').ImportState} params.state
 * @param {import('./api.js').Api} params.api
 * @param {AbortSignal} params.signal
 * @param {(delta: number) => void} params.onProgress bytes of the file the server has, as they grow
 * @returns {Promise<{ outcome: Outcome, sentBytes: number, resumedFrom: number }>}
 */
export function uploadFile({ file, server, token, state, api, signal, onProgress }) {
  return new Promise((resolve, reject) => {
    let reported = 0;
    let sentBytes = 0;
    /** @type {number | undefined} */
    let resumedFrom;
    const upload = new Upload(createReadStream(file.path), {
      endpoint: `${server}/api/uploads`,
      uploadUrl: state.uploadUrl(file.sha256) ?? null,
      headers: { authorization: `Bearer ${token}` },
      metadata: {
        filename: path.basename(file.path),
        filetype: file.type,
        lastModified: String(Math.round(file.mtimeMs)),
        sha256: file.sha256,
      },
      retryDelays: RETRY_DELAYS,
      // The URL is kept in our own state file (by content), not tus-js-client's storage.
      storeFingerprintForResuming: false,
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        return !signal.aborted && (status === 0 || status >= 500 || status === 409 || status === 423 || status === 429);
      },
      onUploadUrlAvailable: () => {
        if (upload.url) state.setUploadUrl(file.sha256, upload.url, file.size);
      },
      onProgress: (bytesUploaded) => {
        onProgress(bytesUploaded - reported);
        reported = bytesUploaded;
      },
      onChunkComplete: (chunkSize, bytesAccepted) => {
        resumedFrom ??= bytesAccepted - chunkSize;
        sentBytes += chunkSize;
      },
      onSuccess: ({ lastResponse }) => {
        onProgress(file.size - reported);
        reported = file.size;
        outcomeOf(lastResponse.getBody(), upload.url).then(
          (outcome) => {
            state.uploadDone(file.sha256);
            resolve({ outcome, sentBytes, resumedFrom: resumedFrom ?? file.size });
          },
          reject,
        );
      },
      onError: (error) => {
        const response = /** @type {{ originalResponse?: import('tus-js-client').HttpResponse | null }} */ (error).originalResponse;
        const status = response?.getStatus() ?? 0;
        // The upload is gone on the server (expired, deleted): the next run starts it afresh.
        if (status === 404 || status === 410) state.uploadDone(file.sha256);
        if (status >= 400 && status < 500 && status !== 429) reject(new Refusal(status, messageOf(response?.getBody(), error.message)));
        else reject(error);
      },
    });
    const onAbort = () => {
      void upload.abort(false).catch(() => undefined);
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    upload.start();
  });

  /**
   * The outcome the final PATCH answered, or (an upload found finished by an earlier run, an answer
   * lost on the way) the one the server keeps for it.
   * @param {string} body
   * @param {string | null} url
   * @returns {Promise<Outcome>}
   */
  async function outcomeOf(body, url) {
    try {
      const parsed = JSON.parse(body);
      if (parsed && typeof parsed.status === 'string' && typeof parsed.fileName === 'string') return parsed;
    } catch {
      // no JSON body
    }
    if (!url) throw new Error('The server answered no upload URL.');
    return api.outcome(url, signal);
  }
}

/**
 * @param {string | undefined} body
 * @param {string} fallback
 */
function messageOf(body, fallback) {
  try {
    const parsed = JSON.parse(body ?? '');
    if (typeof parsed?.message === 'string') return parsed.message;
  } catch {
    // tus answers plain text
  }
  return body?.trim() || fallback;
}
