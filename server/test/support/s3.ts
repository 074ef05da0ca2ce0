import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../../src/config/config.js';

/** The part of s3rver's API used here (the package ships no types). */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
  middleware: ((ctx: KoaContext, next: () => Promise<void>) => Promise<void>)[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  status: number;
  type: string;
  body: unknown;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

const require = createRequire(import.meta.url);

/** s3rver's built-in account: it knows no other key. */
const S3RVER_KEY = 'S3RVER';
const REGION = 'us-east-1';

/**
 * A real S3-compatible server (s3rver) on a random local port, backed by a temporary folder that
 * `stop()` deletes, with one fresh bucket. s3rver checks presigned-URL expiry but not SigV4 signatures.
 */
export async function startS3Server(): Promise<{
  endpoint: string;
  bucket: string;
  env: Record<string, string>;
  config: NonNullable<Config['s3']>;
  /** Every object key in the bucket, sorted (for asserting what storage holds, as `listFiles` does locally). */
  listKeys(): Promise<string[]>;
  stop(): Promise<void>;
}> {
  const S3rver = require('s3rver') as S3rverConstructor;
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  const bucket = `test-${randomBytes(6).toString('hex')}`;
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  teachMultipartCalls(server);
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: REGION,
      S3_ACCESS_KEY_ID: S3RVER_KEY,
      S3_SECRET_ACCESS_KEY: S3RVER_KEY,
    },
    config: { bucket, endpoint, region: REGION, accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
    async listKeys() {
      const client = new S3Client({
        endpoint,
        region: REGION,
        forcePathStyle: true,
        credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      try {
        const keys: string[] = [];
        let ContinuationToken: string | undefined;
        do {
          const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
          for (const object of listed.Contents ?? []) if (object.Key) keys.push(object.Key);
          ContinuationToken = listed.IsTruncated ? listed.NextContinuationToken : undefined;
        } while (ContinuationToken);
        return keys.sort();
      } finally {
        client.destroy();
      }
    },
    async stop() {
      try {
        const closing = server.close();
        // Do not wait for keep-alive sockets or unread object streams held by clients.
        server.httpServer.closeAllConnections();
        await closing;
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The multipart calls s3rver lacks and real S3 has — ListParts and AbortMultipartUpload — answered
 * from where s3rver keeps parts. @tus/s3-store asks ListParts for an upload's offset.
 */
function teachMultipartCalls(server: S3rverInstance): void {
  server.middleware.unshift(async (ctx, next) => {
    const uploadId = ctx.query['uploadId'];
    const [, bucketName = '', ...keyParts] = ctx.path.split('/');
    if (!uploadId || (ctx.method !== 'GET' && ctx.method !== 'DELETE') || keyParts.length === 0) return next();
    const key = decodeURIComponent(keyParts.join('/'));
    const dir = path.join(server.store.getResourcePath(bucketName, undefined, 'uploads'), uploadId);
    const exists = await stat(dir).then(() => true, () => false);
    ctx.type = 'application/xml';
    if (!exists) {
      ctx.status = 404;
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${uploadId}</UploadId></Error>`;
      return;
    }
    if (ctx.method === 'DELETE') {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = '';
      return;
    }
    const numbers = (await readdir(dir)).filter((name) => /^\d+$/.test(name)).map(Number).sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (n) => {
        const [info, md5] = await Promise.all([stat(path.join(dir, String(n))), readFile(path.join(dir, `${n}.md5`), 'utf8')]);
        return `<Part><PartNumber>${n}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5.trim()}"</ETag><Size>${info.size}</Size></Part>`;
      }),
    );
    ctx.status = 200;
    ctx.body =
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>${bucketName}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId>` +
      `<PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>${numbers.at(-1) ?? 0}</NextPartNumberMarker><MaxParts>10000</MaxParts>` +
      `<IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  });
}
