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
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../config/config.js';
import { IMMUTABLE_CACHE_CONTROL, type MediaStorage } from './storage.js';

export type S3Settings = NonNullable<Config['s3']>;

/**
 * How long every presigned URL is valid, counted back from its expiry: the SigV4 maximum (7 days).
 * Signing at `expiresAt - SIGNED_SPAN` instead of "now" makes the URL a pure function of key and
 * expiry, so every page load within one expiry window gets the same URL and the browser cache hits.
 */
export const SIGNED_SPAN_SECONDS = 7 * 24 * 3600;

/** Streamed uploads hold at most PART_SIZE × QUEUE_SIZE bytes in memory, whatever the file size. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/** DeleteObjects accepts at most this many keys per request. */
const DELETE_BATCH = 1000;

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, Garage, R2, s3rver in tests). Browsers load
 * images straight from the bucket through presigned GET URLs.
 */
export class S3Storage implements MediaStorage {
  readonly kind = 's3' as const;
  readonly bucket: string;
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
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
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const body = result.Body;
      if (body === undefined) return Readable.from([]);
      // In Node the SDK's body is the http.IncomingMessage itself (a Readable with SDK mixins).
      if (body instanceof Readable) return body;
      return Readable.fromWeb(body.transformToWebStream() as Parameters<typeof Readable.fromWeb>[0]);
    } catch (error) {
      if (isNotFound(error)) return null;
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
    const expiresSeconds = Math.floor(expiresAt.getTime() / 1000);
    // A signing date in the future makes S3 answer "Request is not yet valid".
    if (expiresSeconds - SIGNED_SPAN_SECONDS > Math.ceil(Date.now() / 1000)) {
      throw new RangeError(`S3 presigned URLs cannot expire more than 7 days ahead (asked for ${expiresAt.toISOString()})`);
    }
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      signingDate: new Date((expiresSeconds - SIGNED_SPAN_SECONDS) * 1000),
      expiresIn: SIGNED_SPAN_SECONDS,
    });
  }

  imageOrigins(): string[] {
    if (this.settings.endpoint) return [new URL(this.settings.endpoint).origin];
    // The SDK addresses AWS buckets virtual-host style, except names with dots (TLS wildcard), which go path-style.
    if (this.bucket.includes('.')) return [`https://s3.${this.settings.region}.amazonaws.com`];
    return [`https://${this.bucket}.s3.${this.settings.region}.amazonaws.com`];
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
