import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Signs app URLs that `<img>` tags load without a bearer token: `<subject>?exp=<unix seconds>&sig=<HMAC>`.
 * The key is derived from the JWT secret, so every app process behind a load balancer accepts the
 * others' URLs; each `purpose` gets its own key, so a signature made for one kind of URL (a profile
 * picture's storage key) can never be replayed as another (a photo bound to a viewer).
 */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(secret: string | Uint8Array, purpose = 'media-url-signing') {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'photo-library', purpose, 32));
  }

  sign(subject: string, expiresAtSeconds: number): string {
    return createHmac('sha256', this.key).update(`${subject}\n${expiresAtSeconds}`).digest('base64url').slice(0, 32);
  }

  verify(subject: string, expiresAtSeconds: number, signature: string, nowSeconds: number): boolean {
    if (!Number.isSafeInteger(expiresAtSeconds) || expiresAtSeconds < nowSeconds) return false;
    const expected = Buffer.from(this.sign(subject, expiresAtSeconds));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** `/media/<key>?exp=&sig=`: a stored object the app streams to whoever holds the URL (profile pictures). */
export function signedMediaPath(signer: UrlSigner, key: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  return `/media/${key}?exp=${exp}&sig=${signer.sign(key, exp)}`;
}

const WINDOW_SECONDS = 6 * 3600;

/**
 * When URLs handed out now expire: between 6 and 12 hours ahead, rounded to a 6-hour boundary.
 * Every page load within one window gets the same URL for an image, so the browser's cache hits.
 */
export function urlExpiry(now: Date): Date {
  const seconds = Math.floor(now.getTime() / 1000);
  return new Date((Math.floor(seconds / WINDOW_SECONDS) * WINDOW_SECONDS + 2 * WINDOW_SECONDS) * 1000);
}
