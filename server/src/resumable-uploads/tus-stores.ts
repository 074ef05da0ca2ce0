import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DataStore } from '@tus/utils';
import type { Config } from '../config/config.js';
import { SNIFF_BYTES } from '../ingest/file-type.js';
import type { ReceivedFile } from '../ingest/receive-file.js';
import { linkOrCopy } from '../shared/link-or-copy.js';
import type { MediaStorage } from '../storage/storage.js';

/** What tus supports here: no deferred lengths (limits are checked at creation), no concatenation. */
const EXTENSIONS = ['creation', 'creation-with-upload', 'termination', 'expiration'];

/** A finished upload's bytes, ready for ingest, or `undefined` when they are gone. */
export type FinishedBytes = ReceivedFile | undefined;

/**
 * Where tus keeps the bytes of unfinished uploads — files under DATA_DIR/tus, or the S3 bucket
 * (so a resumed upload may land on any process) — and how a finished upload becomes the
 * ReceivedFile that ingest takes, the same as a multipart file.
 */
export interface TusBytes {
  readonly datastore: DataStore;
  /** The store's name for an upload (S3 keeps them under `tus/`). */
  storeId(id: string): string;
  /** The upload id of a store name, for its URL. */
  publicId(storeId: string): string;
  /** How many bytes the store holds, or `undefined` when it holds none of this upload. */
  offset(id: string): Promise<number | undefined>;
  /** The finished file, hashed, with its first bytes; the ingest removes `tempPath`. */
  receive(id: string, size: number): Promise<FinishedBytes>;
  /** Removes whatever is left of an upload; what is already gone is fine. */
  discard(id: string): Promise<void>;
}

export function newUploadId(): string {
  return randomBytes(16).toString('hex');
}

export async function createTusBytes(config: Config, storage: MediaStorage): Promise<TusBytes> {
  if (config.s3) {
    const { S3TusBytes } = await import('./s3-tus-bytes.js');
    return new S3TusBytes(config, storage);
  }
  const { CoalescingFileStore } = await import('./coalescing-file-store.js');
  const store = new CoalescingFileStore({ directory: config.resumableUploads.dir, expirationPeriodInMilliseconds: config.resumableUploads.expiryMs });
  return new FileTusBytes(store, config.tempDir);
}

export function limitExtensions(datastore: DataStore): DataStore {
  datastore.extensions = [...EXTENSIONS];
  return datastore;
}

/** Files under DATA_DIR/tus: `<id>` holds the bytes, `<id>.json` what tus knows of the upload. */
class FileTusBytes implements TusBytes {
  readonly datastore: DataStore;

  constructor(
    private readonly store: DataStore & { directory: string },
    private readonly tempDir: string,
  ) {
    this.datastore = limitExtensions(store);
  }

  storeId(id: string): string {
    return id;
  }

  publicId(storeId: string): string {
    return storeId;
  }

  async offset(id: string): Promise<number | undefined> {
    return (await stat(this.file(id)).catch(() => undefined))?.size;
  }

  /**
   * Ingest gets its own name for the file in DATA_DIR/tmp (a hard link, no copy; a copy only when
   * DATA_DIR/tus is on another disk): it removes that when done, while the upload's bytes stay until
   * its outcome is recorded, so a crash in between finishes it again from them.
   */
  async receive(id: string, size: number): Promise<FinishedBytes> {
    const file = this.file(id);
    const found = await stat(file).catch(() => undefined);
    if (!found || found.size !== size) return undefined;
    const tempPath = path.join(this.tempDir, `upload-${randomBytes(12).toString('hex')}`);
    await linkOrCopy(file, tempPath);
    try {
      return { tempPath, ...(await hashFile(tempPath)) };
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
  }

  async discard(id: string): Promise<void> {
    await Promise.all([rm(this.file(id), { force: true }), rm(`${this.file(id)}.json`, { force: true })]);
  }

  private file(id: string): string {
    return path.join(this.store.directory, id);
  }
}

/** SHA-256, size and first bytes of a file, reading it once in 1 MB chunks. */
export async function hashFile(file: string): Promise<Omit<ReceivedFile, 'tempPath'>> {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headLength = 0;
  let bytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    if (headLength < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - headLength);
      head.push(Buffer.from(part));
      headLength += part.length;
    }
  }
  return { sha256: hash.digest('hex'), bytes, head: Buffer.concat(head) };
}

/** An empty upload never reaches the store's bytes (S3 completes nothing): an empty temporary file stands in. */
export async function emptyFile(tempDir: string): Promise<ReceivedFile> {
  const tempPath = path.join(tempDir, `upload-${randomBytes(12).toString('hex')}`);
  await writeFile(tempPath, '');
  return { tempPath, sha256: createHash('sha256').digest('hex'), bytes: 0, head: Buffer.alloc(0) };
}
