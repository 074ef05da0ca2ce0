import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { S3Store } from '@tus/s3-store';
import type { Config } from '../config/config.js';
import { receiveFile } from '../ingest/receive-file.js';
import type { MediaStorage } from '../storage/storage.js';
import { emptyFile, type FinishedBytes, limitExtensions, type TusBytes } from './tus-stores.js';

/** Object keys of tus uploads in the bucket, apart from the media (`originals/`, `derived/`, `profiles/`). */
const PREFIX = 'tus/';

/**
 * Unfinished uploads in the S3 bucket (@tus/s3-store: one multipart upload per tus upload, plus
 * `<key>.info` and, between requests, `<key>.part` for a tail under S3's 5 MB part minimum), so any
 * process can take the next PATCH. A finished upload is streamed down to DATA_DIR/tmp for ingest.
 * Loaded only with S3 configured, like the media storage.
 */
export class S3TusBytes implements TusBytes {
  readonly datastore: S3Store;

  constructor(
    private readonly config: Config,
    private readonly storage: MediaStorage,
  ) {
    const s3 = config.s3;
    if (!s3) throw new Error('S3 is not configured');
    this.datastore = new S3Store({
      partSize: 8 * 1024 * 1024,
      expirationPeriodInMilliseconds: config.resumableUploads.expiryMs,
      // Expiry is this app's sweep (the uploads table), not bucket lifecycle rules on tags.
      useTags: false,
      s3ClientConfig: {
        bucket: s3.bucket,
        region: s3.region,
        // As in S3Storage: no aws-chunked bodies with CRC trailers, which some S3-compatible servers store verbatim.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        ...(s3.endpoint ? { endpoint: s3.endpoint, forcePathStyle: true } : {}),
        ...(s3.accessKeyId && s3.secretAccessKey ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } } : {}),
      },
    });
    limitExtensions(this.datastore);
  }

  storeId(id: string): string {
    return `${PREFIX}${id}`;
  }

  publicId(storeId: string): string {
    return storeId.startsWith(PREFIX) ? storeId.slice(PREFIX.length) : storeId;
  }

  async offset(id: string): Promise<number | undefined> {
    try {
      return (await this.datastore.getUpload(this.storeId(id))).offset;
    } catch {
      return undefined;
    }
  }

  async receive(id: string, size: number): Promise<FinishedBytes> {
    if (size === 0) return emptyFile(this.config.tempDir);
    let body: Readable;
    try {
      body = await this.datastore.read(this.storeId(id));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const received = await receiveFile(body, this.config.tempDir);
    if (received.bytes === size) return received;
    await rm(received.tempPath, { force: true });
    return undefined;
  }

  async discard(id: string): Promise<void> {
    const key = this.storeId(id);
    // Aborts the multipart upload of an unfinished one (a finished one has none: S3 says NoSuchUpload).
    await this.datastore.remove(key).catch(() => undefined);
    await this.storage.delete([key, `${key}.info`, `${key}.part`]);
  }
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return name === 'NoSuchKey' || name === 'NotFound' || status === 404;
}
