import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type BucketLocationConstraint,
  type GetObjectCommandOutput,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../config/config.js';
import { IMMUTABLE_CACHE_CONTROL, type MediaStorage, type StoredObject } from './storage.js';
import { type UrlSigner, signedMediaPath } from './url-signer.js';

export type S3Settings = NonNullable<Config['s3']>;

/** Streamed uploads hold at most PART_SIZE × QUEUE_SIZE bytes in memory, whatever the file size. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/** DeleteObjects accepts at most this many keys per request. */
const DELETE_BATCH = 1000;

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, Garage, R2, s3rver in tests). Browsers never
 * load from the bucket: a presigned URL cannot be revoked before it expires, so the app streams
 * objects itself and checks each request (media-access/). The bucket needs no public access and
 * no CORS, and its origin stays out of the Content-Security-Policy.
 */
export class S3Storage implements MediaStorage {
  readonly kind = 's3' as const;
  readonly bucket: string;
  private readonly client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    private readonly signer: UrlSigner,
  ) {
    this.bucket = settings.bucket;
    const clientConfig: S3ClientConfig = {
      region: settings.region,
      // Without these the SDK (since 3.729) sends streamed bodies as aws-chunked with a CRC trailer,
      // which servers that do not speak that encoding (s3rver, older MinIO, some gateways) store verbatim.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    if (settings.endpoint) {
      clientConfig.endpoint = settings.endpoint;
      clientConfig.forcePathStyle = true;
    }
    if (settings.accessKeyId && settings.secretAccessKey) {
      clientConfig.credentials = { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey };
    }
    this.client = new S3Client(clientConfig);
  }

  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(filePath),
        ContentType: contentType,
        CacheControl: IMMUTABLE_CACHE_CONTROL,
      },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async putBuffer(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        CacheControl: IMMUTABLE_CACHE_CONTROL,
      }),
    );
  }

  async get(key: string): Promise<Readable | null> {
    return (await this.read(key))?.body ?? null;
  }

  async read(key: string): Promise<StoredObject | null> {
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { body: asReadable(result.Body), size: result.ContentLength };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async readRange(key: string, offset: number, length: number): Promise<Buffer | null> {
    if (length <= 0) return (await this.exists(key)) ? Buffer.alloc(0) : null;
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${offset}-${offset + length - 1}` }));
      return Buffer.from(await asBytes(result.Body));
    } catch (error) {
      if (isNotFound(error)) return null;
      // A range starting past the end: nothing there.
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 416) return Buffer.alloc(0);
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const result = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      // Missing keys count as deleted in S3; anything reported here is a real failure (e.g. AccessDenied).
      const failed = (result.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        const first = failed[0];
        throw new Error(`S3 could not delete ${failed.length} object(s), e.g. ${first?.Key}: ${first?.Code} ${first?.Message ?? ''}`.trim());
      }
    }
  }

  async signedUrl(key: string, expiresAt: Date): Promise<string> {
    return signedMediaPath(this.signer, key, expiresAt);
  }

  /** Creates the bucket unless it exists already (at start-up and in tests). */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    try {
      await this.client.send(
        new CreateBucketCommand({
          Bucket: this.bucket,
          ...(this.settings.region !== 'us-east-1' && !this.settings.endpoint
            ? { CreateBucketConfiguration: { LocationConstraint: this.settings.region as BucketLocationConstraint } }
            : {}),
        }),
      );
    } catch (error) {
      // Another process created it in the meantime.
      if (errorName(error) === 'BucketAlreadyOwnedByYou') return;
      throw error;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

function asReadable(body: GetObjectCommandOutput['Body']): Readable {
  if (body === undefined) return Readable.from([]);
  // In Node the SDK's body is the http.IncomingMessage itself (a Readable with SDK mixins).
  if (body instanceof Readable) return body;
  return Readable.fromWeb(body.transformToWebStream() as Parameters<typeof Readable.fromWeb>[0]);
}

async function asBytes(body: GetObjectCommandOutput['Body']): Promise<Uint8Array> {
  return body === undefined ? new Uint8Array() : body.transformToByteArray();
}

function errorName(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : undefined;
}

/** A missing object (or, for HEAD requests, which have no error body, a missing bucket). Not NoSuchBucket on GET. */
function isNotFound(error: unknown): boolean {
  const name = errorName(error);
  if (name === 'NoSuchKey' || name === 'NotFound') return true;
  if (name === 'NoSuchBucket') return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return status === 404;
}
