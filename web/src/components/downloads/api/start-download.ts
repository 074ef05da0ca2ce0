import { calls } from '@photo/contract';
import { callApi } from '@/lib/api-client';

/**
 * Hands a URL to the browser's own download machinery: the file streams straight to disk (no copy
 * in the page's memory, whatever its size), with the name the server sends.
 */
export function saveFromUrl(url: string, fileName = ''): void {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/**
 * A link cannot carry the bearer token, so the web app first asks (with the token) for a
 * short-lived URL bound to the person and these images; the server checks access again when the
 * browser opens it. A refusal (404 naming an image, 401) arrives here, before any download starts.
 */
export async function downloadOriginal(id: string): Promise<void> {
  const ticket = await callApi(calls.createOriginalDownload, { body: { id } });
  saveFromUrl(ticket.url, ticket.fileName);
}

export async function downloadZip(ids: readonly string[]): Promise<void> {
  const ticket = await callApi(calls.createZipDownload, { body: { ids: [...ids] } });
  saveFromUrl(ticket.url, ticket.fileName);
}
