import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { createStorage } from '../src/storage/create-storage.js';
import { LocalStorage } from '../src/storage/local-storage.js';
import { S3Storage } from '../src/storage/s3-storage.js';
import type { MediaStorage } from '../src/storage/storage.js';
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
      const storage = new S3Storage(s3Server.config, signer);
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

  it('read gives the bytes and their size (for Content-Length), or null for a missing key', async () => {
    const body = randomBytes(12_345);
    await storage.putBuffer('derived/read/thumb.webp', body, 'image/webp');
    const object = await storage.read('derived/read/thumb.webp');
    expect(object?.size).toBe(body.length);
    expect((await readAll(object!.body)).equals(body)).toBe(true);
    expect(await storage.read('derived/read/missing.webp')).toBeNull();
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

  it('signs app URLs (/media/<key>?exp=&sig=), never the bucket: the app streams every object', async () => {
    const expiresAt = urlExpiry(new Date());
    const url = await storage.signedUrl('profiles/abc.webp', expiresAt);
    const match = /^\/media\/profiles\/abc\.webp\?exp=(\d+)&sig=([A-Za-z0-9_-]+)$/.exec(url);
    expect(match).not.toBeNull();
    const exp = Number(match![1]);
    expect(exp).toBe(expiresAt.getTime() / 1000);
    expect(signer.verify('profiles/abc.webp', exp, match![2]!, Math.floor(Date.now() / 1000))).toBe(true);
    expect(signer.verify('profiles/abc.webp', exp, match![2]!, exp + 1)).toBe(false);
  });
});

describe('S3 storage specifics', () => {
  let storage: S3Storage;

  beforeAll(async () => {
    storage = new S3Storage(s3Server.config, signer);
    await storage.putFile('originals/photo', PHOTO, 'image/jpeg');
  });

  afterAll(async () => {
    await storage?.close();
  });

  it('streams an object with its size, so the app can answer with Content-Length', async () => {
    const object = await storage.read('originals/photo');
    expect(object?.size).toBe((await stat(PHOTO)).size);
    expect(await sha256OfStream(object!.body)).toBe(await sha256OfFile(PHOTO));
  });

  it('ensureBucket creates a missing bucket, and is idempotent', async () => {
    const fresh = new S3Storage({ ...s3Server.config, bucket: `${s3Server.bucket}-fresh` }, signer);
    await expect(fresh.exists('anything')).resolves.toBe(false);
    await fresh.ensureBucket();
    await fresh.ensureBucket();
    await fresh.putBuffer('derived/x/thumb.webp', Buffer.from('ok'), 'image/webp');
    expect(await fresh.exists('derived/x/thumb.webp')).toBe(true);
    await fresh.close();
  });

  it('get fails loudly (not null) when the bucket itself is missing', async () => {
    const wrong = new S3Storage({ ...s3Server.config, bucket: `${s3Server.bucket}-missing` }, signer);
    await expect(wrong.get('originals/photo')).rejects.toThrow();
    await wrong.close();
  });
});

describe('local storage specifics', () => {
  it('pathFor refuses keys that would leave the media folder', () => {
    const storage = new LocalStorage(path.join(workDir, 'unused'), signer);
    expect(() => storage.pathFor('../x')).toThrow(/Bad media key/);
    expect(() => storage.pathFor('originals/../../x')).toThrow(/Bad media key/);
    expect(() => storage.pathFor('/etc/passwd')).toThrow(/Bad media key/);
    expect(storage.pathFor('originals/abc')).toBe(path.join(workDir, 'unused', 'originals', 'abc'));
  });

  it('putFile gives a received file a second name instead of copying its bytes, and the object outlives the temporary name', async () => {
    const storage = new LocalStorage(await mkdtemp(path.join(workDir, 'media-')), signer);
    const received = path.join(workDir, 'received-upload');
    await copyFile(PHOTO, received);
    await storage.putFile('originals/linked', received);
    const [kept, temp] = await Promise.all([stat(storage.pathFor('originals/linked')), stat(received)]);
    expect(kept.ino).toBe(temp.ino);
    expect(kept.nlink).toBe(2);
    await rm(received);
    expect(await sha256OfStream((await storage.get('originals/linked'))!)).toBe(await sha256OfFile(PHOTO));
    expect((await stat(storage.pathFor('originals/linked'))).nlink).toBe(1);
  });

  it('putFile copies the bytes when the received file is on another file system (no hard link across devices)', async () => {
    const otherDevice = '/dev/shm';
    const media = await mkdtemp(path.join(workDir, 'media-'));
    if ((await stat(otherDevice).catch(() => undefined))?.dev === (await stat(media)).dev) return; // nothing to cross here
    const received = await mkdtemp(path.join(otherDevice, 'storage-test-'));
    try {
      const file = path.join(received, 'upload');
      await copyFile(PHOTO, file);
      const storage = new LocalStorage(media, signer);
      await storage.putFile('originals/copied', file);
      expect((await stat(storage.pathFor('originals/copied'))).ino).not.toBe((await stat(file)).ino);
      expect(await sha256OfFile(storage.pathFor('originals/copied'))).toBe(await sha256OfFile(PHOTO));
    } finally {
      await rm(received, { recursive: true, force: true });
    }
  });
});

describe('createStorage', () => {
  it('uses the bucket when S3_BUCKET is set, the media folder otherwise', async () => {
    const s3 = await createStorage(loadConfig({ DATA_DIR: workDir, ...s3Server.env }), signer);
    expect(s3).toBeInstanceOf(S3Storage);
    await s3.close?.();
    const local = await createStorage(loadConfig({ DATA_DIR: workDir }), signer);
    expect(local).toBeInstanceOf(LocalStorage);
    expect((local as LocalStorage).root).toBe(path.join(workDir, 'media'));
  });
});

describe('UrlSigner', () => {
  it('keeps purposes apart: a signature made for one kind of URL does not verify as another', () => {
    const photos = new UrlSigner('a-test-secret-that-is-long-enough-for-hkdf', 'image-url-signing');
    const exp = Math.floor(Date.now() / 1000) + 60;
    const sig = signer.sign('derived/abc/thumb.webp', exp);
    expect(signer.verify('derived/abc/thumb.webp', exp, sig, exp - 60)).toBe(true);
    expect(photos.verify('derived/abc/thumb.webp', exp, sig, exp - 60)).toBe(false);
  });
});
