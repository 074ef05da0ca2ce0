import { thumbHashToDataURL } from 'thumbhash';

/**
 * Decoded placeholders by their base64 ThumbHash. A grid re-mounts tiles as rows scroll in and
 * out of view, so the same hash is decoded again and again; the cache is bounded because a
 * session can pass through a hundred thousand images.
 */
const cache = new Map<string, string | null>();
const CACHE_LIMIT = 2000;

function decode(base64: string): string | null {
  try {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    return thumbHashToDataURL(bytes);
  } catch {
    // A malformed hash only costs the blur-up; the grey box stays.
    return null;
  }
}

/** The blurred preview (a PNG data URL) of an image's ThumbHash, or null when there is none. */
export function placeholderDataUrl(base64: string | null | undefined): string | null {
  if (!base64) return null;
  const known = cache.get(base64);
  if (known !== undefined) return known;
  const url = decode(base64);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(base64, url);
  return url;
}
