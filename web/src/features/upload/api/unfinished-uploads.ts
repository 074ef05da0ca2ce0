import { getToken } from '@/lib/auth-token';
import type { Content } from './check-uploads';
import { defaultOptions, Upload, type PreviousUpload } from './tus-client';

/**
 * tus-js-client keeps each unfinished upload's URL in localStorage under its file's fingerprint, so a
 * reloaded page can continue it. The fingerprint names the person (a shared browser offers each
 * their own) and the file's content (hashed before any upload anyway): a file picked again matches
 * however it is named or reached, and an upload is never continued with other bytes.
 */
const ownPrefix = (owner: string) => `photo-u${owner}:`;

export function fingerprintOf(content: Content, owner: string): string {
  return `${ownPrefix(owner)}${content.sha256}:${content.size}`;
}

/** An upload a page started and did not finish (the page was closed, reloaded, or lost the server). */
export type Unfinished = { name: string; size: number; key: string; url: string | null };

/** No server keeps an unfinished upload longer (TUS_EXPIRY_HOURS is at most 720). */
const MAX_AGE_MS = 30 * 24 * 3_600_000;

const storage = () => defaultOptions.urlStorage;

const unfinishedOf = (entry: PreviousUpload): Unfinished => ({
  name: entry.metadata['filename'] ?? 'image',
  size: entry.size ?? 0,
  key: entry.urlStorageKey,
  url: entry.uploadUrl,
});

/** The person's unfinished uploads this browser remembers, oldest first; forgets those long expired. */
export async function unfinishedUploads(owner: string): Promise<Unfinished[]> {
  const mine = (await storage().findAllUploads()).filter((entry) => entry.urlStorageKey.startsWith(`tus::${ownPrefix(owner)}`));
  const expired = (entry: PreviousUpload) => Date.now() - Date.parse(entry.creationTime) > MAX_AGE_MS;
  await Promise.all(mine.filter(expired).map((entry) => storage().removeUpload(entry.urlStorageKey)));
  return mine
    .filter((entry) => !expired(entry))
    .sort((a, b) => Date.parse(a.creationTime) - Date.parse(b.creationTime))
    .map(unfinishedOf);
}

/** Abandons uploads: the server drops their bytes (tus termination) and the browser forgets them. */
export async function discardUploads(uploads: readonly Unfinished[]): Promise<void> {
  const token = getToken();
  await Promise.all(
    uploads.map(async ({ key, url }) => {
      // Already gone from the server (expired, finished): nothing to abandon there.
      if (url) await Upload.terminate(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, retryDelays: null }).catch(() => undefined);
      await storage().removeUpload(key);
    }),
  );
}

/** Abandons whatever unfinished upload of this content the browser remembers (e.g. the library turned out to have it). */
export async function discardUploadsOf(content: Content, owner: string): Promise<void> {
  await discardUploads((await storage().findUploadsByFingerprint(fingerprintOf(content, owner))).map(unfinishedOf));
}
