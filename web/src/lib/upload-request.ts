import type { CallDef, ResponseOf } from '@photo/contract';
import { ApiError, buildUrl, parseJsonText, settleAnswer } from './api-client';
import { getToken } from './auth-token';

export type UploadProgress = { loaded: number; total: number };

type SendFormOptions = {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
};

/**
 * Sends a multipart call of the contract with XMLHttpRequest, because fetch cannot report how much
 * of a request body has been sent. Answers exactly like `callApi`: the bearer token, the answer
 * checked against the contract, ApiError on failure (status 0 when the server could not be
 * reached), the session-expiry rule on 401/403, and an AbortError when `signal` aborts.
 */
export function sendForm<C extends CallDef>(call: C, form: FormData, { onProgress, signal }: SendFormOptions = {}): Promise<ResponseOf<C>> {
  const url = buildUrl(call);
  const token = getToken();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('The upload was aborted.', 'AbortError'));
    const xhr = new XMLHttpRequest();
    xhr.open(call.method, url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => {
      try {
        resolve(settleAnswer(call, url, xhr.status, parseJsonText(xhr.responseText), token));
      } catch (error) {
        const retryAfter = Number(xhr.getResponseHeader('Retry-After'));
        reject(
          error instanceof ApiError && Number.isFinite(retryAfter) && retryAfter > 0
            ? new ApiError(error.status, error.body, error.url, retryAfter)
            : error,
        );
      }
    };
    xhr.onerror = () => reject(new ApiError(0, null, url));
    xhr.onabort = () => reject(new DOMException('The upload was aborted.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
