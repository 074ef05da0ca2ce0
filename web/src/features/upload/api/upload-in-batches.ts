import { calls, type UploadOutcome } from '@photo/contract';
import { isAbortError, isApiError, serverMessage } from '@/lib/api-client';
import { sendForm } from '@/lib/upload-request';
import { planBatches } from './plan-batches';

/** What became of one file: the server's verdict, or `failed` when its batch never got one. */
export type FileOutcome = { status: UploadOutcome['status'] | 'failed'; reason?: string };

export type UploadEvents = {
  /** Share of each file's bytes sent so far (0 to 1), for the files of the batch on its way. */
  onProgress: (fractions: ReadonlyMap<number, number>) => void;
  onOutcome: (fileIndex: number, outcome: FileOutcome) => void;
};

/** `stopped`: the connection or the server failed (or the session ended) and later files were not sent. */
export type UploadRun = 'finished' | 'stopped';

/** The server refused this batch as a whole (400/413/415 with a message): its files are refused, the next batch goes. */
function isBatchRefusal(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403 && !isBusy(error);
}

/** 429 (this person's uploads at once) or 503 (the server's upload capacity): try again later, not a refusal. */
function isBusy(error: unknown): boolean {
  return isApiError(error) && (error.status === 429 || error.status === 503);
}

/** How many times a batch is sent again when the server says it is busy, waiting as it asks. */
export const BUSY_RETRIES = 6;

/** Sends a batch; while the server answers busy, waits its Retry-After (5 s without one) and sends again. */
async function whenServerHasRoom<T>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await send();
    } catch (error) {
      if (!isBusy(error) || attempt >= BUSY_RETRIES) throw error;
      const seconds = (isApiError(error) && error.retryAfterSeconds) || 5;
      await pause(Math.min(seconds, 60) * 1000, signal);
    }
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('The upload was aborted.', 'AbortError'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('The upload was aborted.', 'AbortError'));
    }, { once: true });
  });
}

/**
 * Each file's share of a batch's bytes sent. The request also carries multipart headers, so the
 * bytes sent are scaled to the files' total; file i is done when the bytes before it and its own are.
 */
function reportProgress(files: File[], indexes: number[], loaded: number, total: number, onProgress: UploadEvents['onProgress']) {
  const fileBytes = indexes.reduce((sum, index) => sum + files[index]!.size, 0);
  const sent = total > 0 ? (loaded / total) * fileBytes : 0;
  const fractions = new Map<number, number>();
  let before = 0;
  for (const index of indexes) {
    const size = files[index]!.size;
    fractions.set(index, size === 0 ? (sent >= before ? 1 : 0) : Math.min(1, Math.max(0, (sent - before) / size)));
    before += size;
  }
  onProgress(fractions);
}

/** The server names each file; match by name in order (names can repeat), then by position. */
function matchOutcomes(files: File[], indexes: number[], results: UploadOutcome[]): Map<number, UploadOutcome> {
  const matched = new Map<number, UploadOutcome>();
  const unused = [...results];
  for (const index of indexes) {
    const at = unused.findIndex((result) => result.fileName === files[index]!.name);
    if (at >= 0) matched.set(index, unused.splice(at, 1)[0]!);
  }
  indexes
    .filter((index) => !matched.has(index))
    .forEach((index, position) => {
      const result = unused[position];
      if (result) matched.set(index, result);
    });
  return matched;
}

/** Sends the files to POST /bulk-upload in batches, one after another, reporting each file. */
export async function uploadInBatches(files: File[], events: UploadEvents, signal?: AbortSignal): Promise<UploadRun> {
  const batches = planBatches(files.map((file) => file.size));
  for (const [position, indexes] of batches.entries()) {
    const form = new FormData();
    for (const index of indexes) form.append('images', files[index]!); // spec §7: the field repeats
    try {
      const answer = await whenServerHasRoom(
        () =>
          sendForm(calls.bulkUpload, form, {
            signal,
            onProgress: ({ loaded, total }) => reportProgress(files, indexes, loaded, total, events.onProgress),
          }),
        signal,
      );
      const outcomes = matchOutcomes(files, indexes, answer.results);
      for (const index of indexes) {
        const outcome = outcomes.get(index);
        events.onOutcome(
          index,
          outcome ? { status: outcome.status, reason: outcome.reason } : { status: 'failed', reason: 'The server did not report on this file.' },
        );
      }
    } catch (error) {
      if (isAbortError(error)) throw error;
      if (isBatchRefusal(error)) {
        for (const index of indexes) events.onOutcome(index, { status: 'refused', reason: serverMessage(error) });
        continue;
      }
      console.error('Error uploading images:', error);
      for (const index of batches.slice(position).flat()) events.onOutcome(index, { status: 'failed' });
      return 'stopped';
    }
  }
  return 'finished';
}
