import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { createStorage } from '../src/storage/create-storage.js';
import { LocalStorage } from '../src/storage/local-storage.js';
import { S3Storage, SIGNED_SPAN_SECONDS } from '../src/storage/s3-storage.js';
import { IMMUTABLE_CACHE_CONTROL, type MediaStorage } from '../src/storage/storage.js';
import { UrlSigner, urlExpiry } from '../src/storage/url-signer.js';
import { startS3Server } from './support/s3.js';

const PHOTO = '/work/shared/testdata/images/large/canon-eos-5d-mark-iii-22mp.jpg';
const signer = new UrlSigner('a-test-secret-that-is-long-enough-for-hkdf');

let s3Server: Awaited<ReturnType<typeof startS3Server>>;
let workDir: string;
/** Bigger than one upload part (8 MiB), so S3 goes through a multipart upload. */
let bigFile: string;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'storage-test-'));
  bigFile = path.join(workDir, 'big.bin');
  await writeFile(bigFile, randomBytes(11 * 1024 * 1024));
  s3Server = await startS3Server();
});

afterAll(async () => {
  await s3Server?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function sha256OfStream(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function sha256OfFile(file: string): Promise<string> {
  return sha256OfStream(createReadStream(file));
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const implementations: { name: 'local' | 's3'; make: () => Promise<MediaStorage> }[] = [
  { name: 'local', make: async () => new LocalStorage(await mkdtemp(path.join(workDir, 'media-')), signer) },
  {
    name: 's3',
    make: async () => {
      const storage = new S3Storage(s3Server.config);
      await storage.ensureBucket(); // exists already: must be a no-op
      return storage;
    },
  },
];

describe.each(implementations)('media storage contract: $name', ({ name, make }) => {
  let storage: MediaStorage;

  beforeAll(async () => {
    storage = await make();
  });

  afterAll(async () => {
    await storage?.close?.();
  });

  it('has the expected kind', () => {
    expect(storage.kind).toBe(name);
  });

  it('putFile streams a multi-MB photo and get returns the identical bytes', async () => {
    const key = 'originals/canon-22mp';
    expect((await stat(PHOTO)).size).toBeGreaterThan(2_000_000);
    await storage.putFile(key, PHOTO, 'image/jpeg');
    const stream = await storage.get(key);
    expect(stream).not.toBeNull();
    expect(await sha256OfStream(stream!)).toBe(await sha256OfFile(PHOTO));
  });

  it('putFile of a file larger than one upload part keeps every byte', async () => {
    const key = 'originals/big-11mb';
    await storage.putFile(key, bigFile, 'application/octet-stream');
    const stream = await storage.get(key);
    expect(await sha256OfStream(stream!)).toBe(await sha256OfFile(bigFile));
  });

  it('putBuffer then get returns the buffer; putting the same key again replaces it', async () => {
    const key = 'derived/abc123/thumb.webp';
    const body = randomBytes(300 * 1024);
    await storage.putBuffer(key, body, 'image/webp');
    expect((await readAll((await storage.get(key))!)).equals(body)).toBe(true);
    const again = Buffer.from('second version');
    await storage.putBuffer(key, again, 'image/webp');
    expect((await readAll((await storage.get(key))!)).toString()).toBe('second version');
  });

  it('exists tells present from missing objects', async () => {
    await storage.putBuffer('derived/exists/small.webp', Buffer.from('x'), 'image/webp');
    expect(await storage.exists('derived/exists/small.webp')).toBe(true);
    expect(await storage.exists('derived/exists/missing.webp')).toBe(false);
    expect(await storage.exists('never/was/here')).toBe(false);
  });

  it('get of a missing key is null', async () => {
    expect(await storage.get('originals/does-not-exist')).toBeNull();
  });

  it('delete removes objects and ignores keys that do not exist (more than one S3 batch)', async () => {
    const present = ['derived/del/a.webp', 'derived/del/b.webp', 'originals/del-c'];
    for (const key of present) await storage.putBuffer(key, Buffer.from(key), 'image/webp');
    const missing = Array.from({ length: 1005 }, (_, i) => `derived/missing-${i}/thumb.webp`);
    // The last present key falls into the second batch of 1000.
    await storage.delete([present[0]!, ...missing.slice(0, 999), present[1]!, ...missing.slice(999), present[2]!]);
    for (const key of present) expect(await storage.exists(key)).toBe(false);
    await storage.delete([]);
    await storage.delete(['derived/del/a.webp']); // already gone
  });

  it('signedUrl gives the same URL for the same key and expiry, a different one for another expiry', async () => {
    const expiresAt = urlExpiry(new Date());
    const first = await storage.signedUrl('originals/canon-22mp', expiresAt);
    expect(await storage.signedUrl('originals/canon-22mp', new Date(expiresAt))).toBe(first);
    expect(await storage.signedUrl('originals/canon-22mp', new Date(expiresAt.getTime() + 6 * 3600_000))).not.toBe(first);
    expect(await storage.signedUrl('originals/other', expiresAt)).not.toBe(first);
  });
});

describe('S3 storage specifics', () => {
  let storage: S3Storage;

  beforeAll(async () => {
    storage = new S3Storage(s3Server.config);
    await storage.putFile('originals/photo', PHOTO, 'image/jpeg');
  });

  afterAll(async () => {
    await storage?.close();
  });

  it('a presigned URL serves the bytes over plain HTTP with content type and immutable cache headers', async () => {
    const expiresAt = urlExpiry(new Date());
    const url = await storage.signedUrl('originals/photo', expiresAt);
    expect(url.startsWith(`${s3Server.endpoint}/${s3Server.bucket}/originals/photo?`)).toBe(true);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
    const body = Buffer.from(await response.arrayBuffer());
    expect(createHash('sha256').update(body).digest('hex')).toBe(await sha256OfFile(PHOTO));
  });

  it('signs at expiresAt minus a fixed span, so the URL expires exactly at expiresAt', async () => {
    const expiresAt = urlExpiry(new Date());
    const url = new URL(await storage.signedUrl('originals/photo', expiresAt));
    expect(url.searchParams.get('X-Amz-Expires')).toBe(String(SIGNED_SPAN_SECONDS));
    const date = url.searchParams.get('X-Amz-Date')!; // 20250101T000000Z
    const signedAt = Date.parse(date.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'));
    expect(signedAt + SIGNED_SPAN_SECONDS * 1000).toBe(expiresAt.getTime());
  });

  it('another process (another client) hands out the very same URL', async () => {
    const other = new S3Storage(s3Server.config);
    const expiresAt = urlExpiry(new Date());
    expect(await other.signedUrl('originals/photo', expiresAt)).toBe(await storage.signedUrl('originals/photo', expiresAt));
    await other.close();
  });

  it('an expired presigned URL is refused', async () => {
    const url = await storage.signedUrl('originals/photo', new Date(Date.now() - 60_000));
    const response = await fetch(url);
    expect(response.status).toBe(403);
    const text = await response.text();
    expect(text).toContain('AccessDenied');
    expect(text).toContain('Request has expired');
  });

  it('refuses expiries more than 7 days ahead (beyond SigV4)', async () => {
    await expect(storage.signedUrl('originals/photo', new Date(Date.now() + 8 * 24 * 3600_000))).rejects.toThrow(RangeError);
  });

  it('allows images from the endpoint origin, and the URLs really are on that origin', async () => {
    expect(storage.imageOrigins()).toEqual([s3Server.endpoint]);
    const url = await storage.signedUrl('originals/photo', urlExpiry(new Date()));
    expect(new URL(url).origin).toBe(s3Server.endpoint);
  });

  it('on AWS (no endpoint) imageOrigins matches the host the SDK signs for', async () => {
    const credentials = { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' };
    for (const settings of [
      { bucket: 'photos', region: 'eu-west-1', ...credentials },
      { bucket: 'photos', region: 'us-east-1', ...credentials },
      { bucket: 'my.photos', region: 'eu-central-1', ...credentials },
    ]) {
      const aws = new S3Storage(settings);
      const url = await aws.signedUrl('originals/x', urlExpiry(new Date()));
      expect(aws.imageOrigins()).toEqual([new URL(url).origin]);
      await aws.close();
    }
  });

  it('ensureBucket creates a missing bucket, and is idempotent', async () => {
    const fresh = new S3Storage({ ...s3Server.config, bucket: `${s3Server.bucket}-fresh` });
    await expect(fresh.exists('anything')).resolves.toBe(false);
    await fresh.ensureBucket();
    await fresh.ensureBucket();
    await fresh.putBuffer('derived/x/thumb.webp', Buffer.from('ok'), 'image/webp');
    expect(await fresh.exists('derived/x/thumb.webp')).toBe(true);
    await fresh.close();
  });

  it('get fails loudly (not null) when the bucket itself is missing', async () => {
    const wrong = new S3Storage({ ...s3Server.config, bucket: `${s3Server.bucket}-missing` });
    await expect(wrong.get('originals/photo')).rejects.toThrow();
    await wrong.close();
  });
});

describe('local storage specifics', () => {
  it('signs URLs as /media/<key>?exp=<unix seconds>&sig=<HMAC> that the signer accepts', async () => {
    const storage = new LocalStorage(path.join(workDir, 'unused'), signer);
    const expiresAt = urlExpiry(new Date());
    const url = await storage.signedUrl('derived/abc/thumb.webp', expiresAt);
    const match = /^\/media\/derived\/abc\/thumb\.webp\?exp=(\d+)&sig=([A-Za-z0-9_-]+)$/.exec(url);
    expect(match).not.toBeNull();
    const exp = Number(match![1]);
    expect(exp).toBe(expiresAt.getTime() / 1000);
    expect(signer.verify('derived/abc/thumb.webp', exp, match![2]!, Math.floor(Date.now() / 1000))).toBe(true);
    expect(storage.imageOrigins()).toEqual([]);
  });

  it('pathFor refuses keys that would leave the media folder', () => {
    const storage = new LocalStorage(path.join(workDir, 'unused'), signer);
    expect(() => storage.pathFor('../x')).toThrow(/Bad media key/);
    expect(() => storage.pathFor('originals/../../x')).toThrow(/Bad media key/);
    expect(() => storage.pathFor('/etc/passwd')).toThrow(/Bad media key/);
    expect(storage.pathFor('originals/abc')).toBe(path.join(workDir, 'unused', 'originals', 'abc'));
  });
});

describe('createStorage', () => {
  it('uses the bucket when S3_BUCKET is set, the media folder otherwise', async () => {
    const s3 = await createStorage(loadConfig({ DATA_DIR: workDir, ...s3Server.env }), signer);
    expect(s3).toBeInstanceOf(S3Storage);
    expect(s3.imageOrigins()).toEqual([s3Server.endpoint]);
    await s3.close?.();
    const local = await createStorage(loadConfig({ DATA_DIR: workDir }), signer);
    expect(local).toBeInstanceOf(LocalStorage);
    expect((local as LocalStorage).root).toBe(path.join(workDir, 'media'));
  });
});
