import { calls, UPLOAD_OUTCOME_HEADERS, type UploadOutcome } from '@photo/contract';
import { buildUrl, isApiError, parseJsonText, settleAnswer } from '@/lib/api-client';
import { getToken } from '@/lib/auth-token';
import type { HttpResponse } from './tus-client';

/** What became of one file: the server's verdict, or `failed` when it never got one. */
export type FileOutcome = { status: UploadOutcome['status'] | 'failed'; reason?: string };

/** How long to ask for the outcome of a file the server is still processing. */
export const OUTCOME_WAIT_MS = 10 * 60_000;

/**
 * The outcome the final answer carries: its JSON body (the final PATCH, shaped like the outcome call's answer), else the headers (a HEAD on
 * a finished upload). Undefined when it carries none, or a refusal without its reason.
 */
export function outcomeFromResponse(response: HttpResponse): FileOutcome | undefined {
  const body = calls.getUploadOutcome.response.safeParse(parseJsonText(response.getBody() ?? ''));
  if (body.success) return { status: body.data.status, ...(body.data.reason ? { reason: body.data.reason } : {}) };
  const status = response.getHeader(UPLOAD_OUTCOME_HEADERS.status);
  return status === 'kept' || status === 'duplicate' ? { status } : undefined;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }, { once: true });
  });

/**
 * GET /api/uploads/:id/outcome until the server has one: a 409 with Retry-After means it is still
 * processing the file. Read with fetch rather than callApi for that header; the answer is settled
 * by the api-client (contract check, session rule) all the same.
 */
export async function waitForOutcome(uploadId: string, signal?: AbortSignal): Promise<FileOutcome> {
  const url = buildUrl(calls.getUploadOutcome, { id: uploadId });
  const deadline = Date.now() + OUTCOME_WAIT_MS;
  for (;;) {
    const token = getToken();
    const response = await fetch(url, { headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, signal });
    const retryAfter = Number(response.headers.get('Retry-After'));
    try {
      const outcome = settleAnswer(calls.getUploadOutcome, url, response.status, parseJsonText(await response.text()), token);
      return { status: outcome.status, ...(outcome.reason ? { reason: outcome.reason } : {}) };
    } catch (error) {
      const processing = isApiError(error) && error.status === 409 && retryAfter > 0;
      if (!processing || Date.now() > deadline) throw error;
      await sleep(Math.min(retryAfter, 30) * 1000, signal);
    }
  }
}
