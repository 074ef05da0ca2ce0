import type { Readable } from 'node:stream';

/**
 * Where originals and derived images live. Keys are slash-separated and content-addressed
 * (`originals/<sha256>`, `derived/<sha256>/thumb.webp`), so an object never changes once written:
 * that is what lets every implementation hand out long-lived cache headers.
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** Streams a file from local disk into storage (never reads it whole into memory). */
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  /** Stores a small object (derived images, a few hundred kB at most). */
  putBuffer(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object as a stream, or null when there is no such object. */
  get(key: string): Promise<Readable | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the objects; keys that do not exist are not an error. */
  delete(keys: readonly string[]): Promise<void>;
  /** A URL a browser `<img>` can load until `expiresAt` (DECISIONS §4), then refused. */
  signedUrl(key: string, expiresAt: Date): Promise<string>;
  /** Origins the browser must be allowed to load images from (Content-Security-Policy img-src). */
  imageOrigins(): string[];
  close?(): Promise<void>;
}

/** Cache-Control for stored objects: content-addressed keys never change, so caches may keep them. */
export const IMMUTABLE_CACHE_CONTROL = 'private, max-age=31536000, immutable';
