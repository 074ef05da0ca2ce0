import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Signs media URLs for local storage: `<key>?exp=<unix seconds>&sig=<HMAC>`. The key is derived
 * from the JWT secret, so every app process behind a load balancer accepts the others' URLs.
 */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(secret: string | Uint8Array) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'photo-library', 'media-url-signing', 32));
  }

  sign(objectKey: string, expiresAtSeconds: number): string {
    return createHmac('sha256', this.key).update(`${objectKey}\n${expiresAtSeconds}`).digest('base64url').slice(0, 32);
  }

  verify(objectKey: string, expiresAtSeconds: number, signature: string, nowSeconds: number): boolean {
    if (!Number.isSafeInteger(expiresAtSeconds) || expiresAtSeconds < nowSeconds) return false;
    const expected = Buffer.from(this.sign(objectKey, expiresAtSeconds));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
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
