import type { Readable } from 'node:stream';

/** A stored object opened for reading: its bytes and, when the store says, its size. */
export interface StoredObject {
  body: Readable;
  size: number | undefined;
}

/**
 * Where originals and derived images live. Keys are slash-separated and content-addressed
 * (`originals/<sha256>`, `derived/<sha256>/thumb.webp`), so an object never changes once written:
 * that is what lets a key serve as an ETag and profile pictures be cached for a year.
 *
 * Browsers never load from the store itself: the app streams every object (`/media/...`), so it
 * can check, on each request, that the viewer may still see the photo (media-access/).
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** Streams a file from local disk into storage (never reads it whole into memory). */
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  /** Stores a small object (derived images, a few hundred kB at most). */
  putBuffer(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object as a stream, or null when there is no such object. */
  get(key: string): Promise<Readable | null>;
  /** The object as a stream with its size (for Content-Length), or null when there is no such object. */
  read(key: string): Promise<StoredObject | null>;
  /**
   * Up to `length` bytes from `offset` (fewer at the end of the object, none past it), or null when
   * there is no such object: for reading a file's headers without reading it all.
   */
  readRange(key: string, offset: number, length: number): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the objects; keys that do not exist are not an error. */
  delete(keys: readonly string[]): Promise<void>;
  /**
   * An app URL (`/media/<key>?exp&sig`) a browser `<img>` can load until `expiresAt`, for objects
   * that are not shared photos (profile pictures). Photos get viewer-bound URLs (media-access/).
   */
  signedUrl(key: string, expiresAt: Date): Promise<string>;
  close?(): Promise<void>;
}

/** Cache-Control for stored objects: content-addressed keys never change, so caches may keep them. */
export const IMMUTABLE_CACHE_CONTROL = 'private, max-age=31536000, immutable';
