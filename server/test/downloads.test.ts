import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testSetups } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { TESTDATA, tinyPng, upload } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { ManualClock, startTestServer, type TestServer } from './support/test-server.js';
import { unzip } from './support/zips.js';

const LARGE_PHOTO = path.join(TESTDATA, 'camera/Apple iPhone 5.jpg');
const JPEG_PHOTO = path.join(TESTDATA, 'camera/Canon PowerShot A85.jpg');

interface Ticket {
  url: string;
  fileName: string;
  expiresAt: string;
}

const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(testSetups)('downloads ($database, $storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  const clock = new ManualClock();
  let admin: SignedUpPerson;
  let bob: SignedUpPerson;
  let carol: SignedUpPerson;
  let photoId: string;
  let photoBytes: Buffer;
  const pngs: { id: string; bytes: Buffer }[] = [];

  const ticket = async (call: 'original' | 'zip', body: unknown, token: string) =>
    api.post<Ticket>(`/api/downloads/${call}`, body, token);
  const fetchFile = async (url: string) => {
    const res = await fetch(new URL(url, server.url));
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { clock, env: { ...s3?.env } });
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
    carol = await signUpConfirmed(server, api, { prefix: 'carol' });
    photoBytes = await readFile(JPEG_PHOTO);
    const res = await upload(server.url, bob.token, [{ source: JPEG_PHOTO, name: 'Café à Paris.jpg' }]);
    expect(res.body.results?.[0]?.status).toBe('kept');
    photoId = res.body.results?.[0]?.imageId ?? '';
    // Three different pictures, two of them uploaded under the same name.
    for (const [seed, name] of [[1, 'IMG_0001.png'], [2, 'IMG_0001.png'], [3, 'other.png']] as const) {
      const bytes = await tinyPng(4200 + seed);
      const up = await upload(server.url, bob.token, [{ source: bytes, name }]);
      pngs.push({ id: up.body.results?.[0]?.imageId ?? '', bytes });
    }
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  it('downloads the untouched original with its uploaded name, type and length', async () => {
    const made = await ticket('original', { id: photoId }, bob.token);
    expect(made.status).toBe(200);
    expect(made.body.url).toMatch(/^\/downloads\/[A-Za-z0-9_-]{43}$/);
    expect(made.body.fileName).toBe('Café à Paris.jpg');
    const { res, bytes } = await fetchFile(made.body.url);
    expect(res.status).toBe(200);
    expect(sha256(bytes)).toBe(sha256(photoBytes));
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Number(res.headers.get('content-length'))).toBe(photoBytes.length);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Caf_ _ Paris.jpg"; filename*=UTF-8''Caf%C3%A9%20%C3%A0%20Paris.jpg`);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('a download URL works for a few minutes, many times, then answers 404', async () => {
    const made = await ticket('original', { id: photoId }, bob.token);
    expect((await fetchFile(made.body.url)).res.status).toBe(200);
    expect((await fetchFile(made.body.url)).res.status).toBe(200);
    clock.advance(5 * 60_000 + 1000);
    expect((await fetchFile(made.body.url)).res.status).toBe(404);
  });

  it('a client that goes away mid-zip leaves the server serving', async () => {
    const made = await ticket('zip', { ids: [photoId, ...pngs.map((p) => p.id)] }, bob.token);
    const controller = new AbortController();
    const res = await fetch(new URL(made.body.url, server.url), { signal: controller.signal });
    expect(res.status).toBe(200);
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await api.get('/api/health')).status).toBe(200);
  });

  it('refuses a download to anyone who may not see the image, and without a session', async () => {
    expect((await ticket('original', { id: photoId }, carol.token)).status).toBe(404);
    expect((await api.post('/api/downloads/original', { id: photoId })).status).toBe(401);
    expect((await fetch(new URL('/downloads/not-a-ticket', server.url))).status).toBe(404);
  });

  it('zips the originals byte for byte, duplicate names made unique', async () => {
    const ids = [photoId, ...pngs.map((p) => p.id)];
    const made = await ticket('zip', { ids }, bob.token);
    expect(made.status).toBe(200);
    expect(made.body.fileName).toMatch(/^photos-\d{4}-\d{2}-\d{2}\.zip$/);
    const { res, bytes } = await fetchFile(made.body.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain(`filename="${made.body.fileName}"`);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    const entries = await unzip(bytes);
    expect([...entries.keys()]).toEqual(['Café à Paris.jpg', 'IMG_0001.png', 'IMG_0001 (2).png', 'other.png']);
    expect(sha256(entries.get('Café à Paris.jpg')!)).toBe(sha256(photoBytes));
    expect(sha256(entries.get('IMG_0001.png')!)).toBe(sha256(pngs[0]!.bytes));
    expect(sha256(entries.get('IMG_0001 (2).png')!)).toBe(sha256(pngs[1]!.bytes));
    expect(sha256(entries.get('other.png')!)).toBe(sha256(pngs[2]!.bytes));
  });

  it('answers 404 naming an image the person may not see, before anything is made', async () => {
    const others = await upload(server.url, carol.token, [{ source: await tinyPng(4300), name: 'carols.png' }]);
    const carolsId = others.body.results?.[0]?.imageId ?? '';
    const refused = await ticket('zip', { ids: [photoId, carolsId] }, bob.token);
    expect(refused.status).toBe(404);
    expect((refused.body as unknown as { message: string }).message).toBe(`Image ${carolsId} was not found.`);
    expect((await ticket('zip', { ids: [photoId, '999999'] }, bob.token)).status).toBe(404);
    expect((await ticket('zip', { ids: [] }, bob.token)).status).toBe(400);
    // Up to 10,000 ids are accepted in one request; more are refused.
    expect((await ticket('zip', { ids: Array.from({ length: 10_001 }, (_, i) => String(i + 1)) }, bob.token)).status).toBe(400);
  });

  it('a recipient downloads what was shared; once switched off, even a URL already handed out is 404', async () => {
    expect((await api.post('/api/share-restricted', { imageIds: [photoId, pngs[0]!.id], emails: [carol.email] }, bob.token)).status).toBe(200);
    const made = await ticket('zip', { ids: [photoId, pngs[0]!.id] }, carol.token);
    expect(made.status).toBe(200);
    expect((await ticket('zip', { ids: [photoId, pngs[1]!.id] }, carol.token)).status).toBe(404);

    const data = await api.get<{ restrictedAccessUserData: { _id: string; accessTo: string }[] }>('/getUserAccessData', bob.token);
    const record = data.body.restrictedAccessUserData.find((r) => r.accessTo === carol.email)!._id;
    expect((await api.put(`/updateUserStatus/${record}`, { status: false, type: 'restrictedAccess' }, bob.token)).status).toBe(200);
    const { res } = await fetchFile(made.body.url);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect((await ticket('original', { id: photoId }, carol.token)).status).toBe(404);
  });

  it('share-all links download one photo or all, unless the owner switched downloads off; they die with the link', async () => {
    const grandma = newPerson('grandma').email;
    const shared = await api.post<{ link: string }>('/api/share-all', { accessTo: [grandma] }, admin.token);
    expect(shared.status).toBe(200);
    const link = /\/share-all\/([A-Za-z0-9_-]+)$/.exec(shared.body.link)![1]!;

    expect((await api.get(`/shared-images/${link}/downloads`)).body).toEqual({ allowDownloads: true });
    const one = await fetchFile(`/shared-images/${link}/download/${photoId}`);
    expect(one.res.status).toBe(200);
    expect(sha256(one.bytes)).toBe(sha256(photoBytes));
    const all = await fetchFile(`/shared-images/${link}/download`);
    expect(all.res.status).toBe(200);
    const entries = await unzip(all.bytes);
    expect(entries.size).toBeGreaterThanOrEqual(5);
    expect(sha256(entries.get('Café à Paris.jpg')!)).toBe(sha256(photoBytes));

    const settings = await api.get<{ records: { _id: string; allowDownloads: boolean }[] }>('/api/access-records/downloads', admin.token);
    const record = settings.body.records.at(-1)!;
    expect(record.allowDownloads).toBe(true);
    // Only the owner can switch it.
    expect((await api.put(`/api/access-records/${record._id}/downloads`, { allow: false }, bob.token)).status).toBe(404);
    expect((await api.put(`/api/access-records/${record._id}/downloads`, { allow: false }, admin.token)).status).toBe(200);
    expect((await api.get(`/shared-images/${link}/downloads`)).body).toEqual({ allowDownloads: false });
    expect((await fetchFile(`/shared-images/${link}/download/${photoId}`)).res.status).toBe(404);
    expect((await fetchFile(`/shared-images/${link}/download`)).res.status).toBe(404);
    // The page itself still works.
    expect((await api.get(`/shared-images/${link}`)).status).toBe(200);

    expect((await api.put(`/api/access-records/${record._id}/downloads`, { allow: true }, admin.token)).status).toBe(200);
    expect((await fetchFile(`/shared-images/${link}/download/${photoId}`)).res.status).toBe(200);
    expect((await api.put(`/updateUserStatus/${record._id}`, { status: false, type: 'allAccess' }, admin.token)).status).toBe(200);
    expect((await fetchFile(`/shared-images/${link}/download/${photoId}`)).res.status).toBe(404);
    expect((await fetchFile(`/shared-images/${link}/download`)).res.status).toBe(404);
  });

  it('documents the download calls in the OpenAPI document', async () => {
    const doc = await api.get<{ paths: Record<string, unknown> }>('/api/docs/json');
    expect(doc.status).toBe(200);
    for (const p of ['/api/downloads/zip', '/api/downloads/original', '/downloads/{ticket}', '/shared-images/{link}/download', '/shared-images/{link}/download/{id}', '/api/access-records/{id}/downloads']) {
      expect(Object.keys(doc.body.paths)).toContain(p);
    }
  });

  it('zips 10,000 photos for someone allowed to see them', { timeout: 120_000 }, async () => {
    // 10,000 images of one small stored picture, made straight in the database (one per person:
    // an account holds a picture once), all visible to the admin who asks.
    const source = pngs[2]!;
    await server.sql(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < 9999)
       insert into users (username, email, password_hash, role, created_at, updated_at)
       select 'many', 'many-' || i || '@zip.test', 'x', 'user', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' from n`,
    );
    await server.sql(
      `insert into images (media_id, uploaded_by, file_name, image_name, ready, visible_since, created_at)
       select images.media_id, users.id, images.file_name, images.image_name, images.ready, images.visible_since, images.created_at
       from images, users where images.id = ? and users.email like 'many-%@zip.test'`,
      [Number(source.id)],
    );
    await server.sql('update library_state set version = version + 1, reset_version = version + 1');
    const rows = await server.rows<{ id: number | string }>('select id from images where media_id = (select media_id from images where id = ?) order by id', [Number(source.id)]);
    expect(rows.length).toBe(10_000);
    const made = await ticket('zip', { ids: rows.map((r) => String(r.id)) }, admin.token);
    expect(made.status).toBe(200);
    const { res, bytes } = await fetchFile(made.body.url);
    expect(res.status).toBe(200);
    expect(bytes.length).toBe(Number(res.headers.get('content-length')));
    const entries = await unzip(bytes);
    expect(entries.size).toBe(10_000);
    const want = sha256(source.bytes);
    expect([...entries.values()].every((entry) => sha256(entry) === want)).toBe(true);
  });

  it.runIf(storage === 'local')('streams a > 4 GB ZIP64 archive with flat server memory', { timeout: 300_000 }, async () => {
    const large = await readFile(LARGE_PHOTO);
    const up = await upload(server.url, bob.token, [{ source: LARGE_PHOTO, name: 'big.jpg' }]);
    const firstId = up.body.results?.[0]?.imageId ?? '';
    expect(up.body.results?.[0]?.status).toBe('kept');
    // Many images of the same stored picture, made straight in the database: one per person (an
    // account holds a picture once), all visible to the admin who asks for the zip.
    const copies = Math.ceil((4.1 * 1024 ** 3) / large.length);
    await server.sql(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${copies - 1})
       insert into users (username, email, password_hash, role, created_at, updated_at)
       select 'bulk', 'bulk-' || i || '@zip.test', 'x', 'user', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' from n`,
    );
    await server.sql(
      `insert into images (media_id, uploaded_by, file_name, image_name, ready, visible_since, created_at)
       select images.media_id, users.id, images.file_name, images.image_name, images.ready, images.visible_since, images.created_at
       from images, users where images.id = ? and users.email like 'bulk-%@zip.test'`,
      [Number(firstId)],
    );
    const rows = await server.rows<{ id: number | string }>('select id from images where media_id = (select media_id from images where id = ?) order by id', [Number(firstId)]);
    expect(rows.length).toBe(copies);
    const made = await ticket('zip', { ids: rows.map((r) => String(r.id)) }, admin.token);
    expect(made.status).toBe(200);

    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const res = await fetch(new URL(made.body.url, server.url));
    expect(res.status).toBe(200);
    const hash = createHash('sha256');
    let total = 0;
    // Only the last few MB are kept (the central directory and end records), never the archive.
    const recent: Uint8Array[] = [];
    let recentBytes = 0;
    const TAIL = 4 * 1024 * 1024;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      total += chunk.length;
      recent.push(chunk);
      recentBytes += chunk.length;
      while (recentBytes - recent[0]!.length >= TAIL) recentBytes -= recent.shift()!.length;
    }
    clearInterval(sampler);
    const tail = Buffer.concat(recent);
    expect(hash.digest('hex')).toMatch(/^[0-9a-f]{64}$/);
    expect(total).toBeGreaterThan(4 * 1024 ** 3);
    expect(total).toBe(Number(res.headers.get('content-length')));
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);

    // The end records: ZIP64 end of central directory, its locator, then the classic one.
    const tailStart = total - tail.length;
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    const locator = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x07]), eocd);
    const zip64 = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]), locator);
    expect(eocd).toBeGreaterThan(0);
    expect(locator).toBe(eocd - 20);
    expect(Number(tail.readBigUInt64LE(locator + 8))).toBe(tailStart + zip64);
    expect(Number(tail.readBigUInt64LE(zip64 + 32))).toBe(copies);
    const cdSize = Number(tail.readBigUInt64LE(zip64 + 40));
    const cdOffset = Number(tail.readBigUInt64LE(zip64 + 48));
    expect(cdOffset + cdSize).toBe(tailStart + zip64);

    // Every central directory entry: the picture's CRC and size, names made unique.
    const expectedCrc = crc32(large);
    const names = new Set<string>();
    let at = cdOffset - tailStart;
    for (let i = 0; i < copies; i += 1) {
      expect(tail.readUInt32LE(at)).toBe(0x02014b50);
      expect(tail.readUInt32LE(at + 16)).toBe(expectedCrc);
      const nameLength = tail.readUInt16LE(at + 28);
      const extraLength = tail.readUInt16LE(at + 30);
      const commentLength = tail.readUInt16LE(at + 32);
      names.add(tail.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
      const size = tail.readUInt32LE(at + 24);
      if (size !== 0xffffffff) expect(size).toBe(large.length);
      at += 46 + nameLength + extraLength + commentLength;
    }
    expect(at).toBe(zip64);
    expect(names.size).toBe(copies);
    expect(names.has('big.jpg') && names.has('big (2).jpg')).toBe(true);
  });
});
