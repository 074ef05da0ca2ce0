import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '@photo/contract';
import type { TestDatabaseKind } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import {
  TESTDATA,
  difference,
  fingerprint,
  listFiles,
  readManifest,
  upload,
  uprightSize,
  type ManifestEntry,
  type UploadResult,
} from './support/images.js';
import { startS3Server } from './support/s3.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/** Both databases and both storages, each at least once. */
const setups: { database: TestDatabaseKind; storage: 'local' | 's3' }[] = [
  { database: 'sqlite', storage: 'local' },
  { database: 'postgres', storage: 's3' },
];

describe.each(setups)('uploading the test photos ($database, $storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  let manifest: ManifestEntry[];
  let results: UploadResult[];
  let owner: { token: string };
  let someoneElse: { token: string };

  async function signUp() {
    const res = await api.post<{ token: string }>('/signup', newPerson());
    expect(res.status).toBe(201);
    return res.body;
  }

  /** Every object the storage holds, by key. */
  async function storedKeys(): Promise<string[]> {
    if (!s3) return listFiles(path.join(server.dataDir, 'media'));
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.config.region,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      return (listed.Contents ?? []).map((o) => o.Key ?? '').sort();
    } finally {
      client.destroy();
    }
  }

  async function fetchImage(url: string | null): Promise<Response> {
    expect(url).toBeTruthy();
    return fetch(new URL(url ?? '', server.url));
  }

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { env: { ...s3?.env } });
    api = apiClient(server.url);
    await signUp(); // the first account is the admin; the uploads below are a plain user's
    owner = await signUp();
    someoneElse = await signUp();
    manifest = await readManifest();
    const response = await upload(
      server.url,
      owner.token,
      manifest.map((entry) => ({ source: path.join(TESTDATA, entry.file), name: path.basename(entry.file) })),
    );
    expect(response.status).toBe(200);
    results = response.body.results ?? [];
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  const resultFor = (entry: ManifestEntry) => {
    const result = results[manifest.indexOf(entry)];
    expect(result?.fileName).toBe(path.basename(entry.file));
    return result as UploadResult;
  };

  it('reports one outcome per file: every decodable photo kept, every broken file refused with a reason', () => {
    expect(results).toHaveLength(manifest.length);
    for (const entry of manifest) {
      const result = resultFor(entry);
      if (entry.expectDecodable) expect(result, entry.file).toMatchObject({ status: 'kept', imageId: expect.any(String) });
      else expect(result, entry.file).toMatchObject({ status: 'refused', reason: expect.any(String) });
    }
    const reason = (file: string) => resultFor(manifest.find((e) => e.file === file) as ManifestEntry).reason;
    expect(reason('broken/decompression_bomb.gif')).toMatch(/65535×66601 pixels is over the \d+ megapixel limit/);
    expect(reason('broken/empty.jpg')).toBe('The file is empty.');
    expect(reason('broken/not_an_image.jpg')).toMatch(/not an image/);
    expect(reason('broken/truncated-sony-xperia-z5c.jpg')).toBe('The image could not be decoded: the file is cut off (it ends before the picture does).');
    expect(reason('broken/zero-height-sof.jpg')).toMatch(/could not be read|no pixels/);
  });

  it('gives every kept photo its upright size, a placeholder, EXIF facts, and derived WebP images', async () => {
    for (const entry of manifest.filter((e) => e.expectDecodable)) {
      const { imageId } = resultFor(entry);
      const res = await api.get<Image>(`/api/images/${imageId}`, owner.token);
      expect(res.status, entry.file).toBe(200);
      expect({ width: res.body.width, height: res.body.height }, entry.file).toEqual(uprightSize(entry));
      expect(res.body.placeholder, entry.file).toMatch(/^[A-Za-z0-9+/]+=*$/);
      for (const [url, longSide] of [[res.body.trimmedURL, 1920], [res.body.thumbnailURL, 400]] as const) {
        const file = await fetchImage(url);
        expect(file.status, entry.file).toBe(200);
        expect(file.headers.get('content-type')).toBe('image/webp');
        expect(file.headers.get('cache-control')).toBe('private, no-cache');
        const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
        const upright = uprightSize(entry);
        const scale = Math.min(1, longSide / Math.max(upright.width, upright.height));
        expect(meta.width, `${entry.file} ${longSide}`).toBeCloseTo(upright.width * scale, -0.5);
        expect(meta.height, `${entry.file} ${longSide}`).toBeCloseTo(upright.height * scale, -0.5);
      }
    }
    const iphone = await api.get<Image>(`/api/images/${resultFor(manifest.find((e) => e.file.endsWith('iphone-xr-orient6-gps.heic')) as ManifestEntry).imageId}`, owner.token);
    expect(iphone.body).toMatchObject({ camera: 'Apple iPhone XR', takenAt: '2019-08-21T11:21:36' });
    expect(iphone.body.gps?.latitude).toBeCloseTo(38.6995, 3);
    expect(iphone.body.gps?.longitude).toBeCloseTo(-9.2077, 3);
  }, 60_000);

  it('turns every EXIF orientation upright, exactly once', async () => {
    const display = async (file: string) => {
      const entry = manifest.find((e) => e.file === file) as ManifestEntry;
      const res = await api.get<Image>(`/api/images/${resultFor(entry).imageId}`, owner.token);
      return fingerprint(Buffer.from(await (await fetchImage(res.body.trimmedURL)).arrayBuffer()));
    };
    for (const shape of ['Landscape', 'Portrait']) {
      const reference = await display(`orientation/${shape}_1.jpg`);
      // The check can fail: the same picture upside down differs far more than the digit does.
      const upsideDown = await fingerprint(
        await sharp(await readFile(path.join(TESTDATA, `orientation/${shape}_1.jpg`))).rotate(180).toBuffer(),
      );
      expect(difference(reference, upsideDown)).toBeGreaterThan(20);
      for (const n of [2, 3, 4, 5, 6, 7, 8]) {
        expect(difference(await display(`orientation/${shape}_${n}.jpg`), reference), `${shape}_${n}`).toBeLessThan(12);
      }
    }
  });

  it('stores exactly one original and two derived files per kept photo: nothing orphaned, no temporary files left', async () => {
    const kept = manifest.filter((e) => e.expectDecodable);
    const expected = (
      await Promise.all(
        kept.map(async (entry) => {
          const hash = createHash('sha256').update(await readFile(path.join(TESTDATA, entry.file))).digest('hex');
          return [`originals/${hash}`, `derived/${hash}/display.webp`, `derived/${hash}/thumb.webp`];
        }),
      )
    ).flat();
    expect(await storedKeys()).toEqual([...new Set(expected)].sort());
    expect(await listFiles(path.join(server.dataDir, 'tmp'))).toEqual([]);
  });

  it('stores identical content once: the same person gets a duplicate, someone else a new image of the same file', async () => {
    const before = await storedKeys();
    const file = { source: path.join(TESTDATA, 'camera/HTC Desire.jpg'), name: 'again.jpg' };
    const original = resultFor(manifest.find((e) => e.file === 'camera/HTC Desire.jpg') as ManifestEntry);

    const again = await upload(server.url, owner.token, [file]);
    expect(again.status).toBe(200);
    expect(again.body.results).toEqual([{ fileName: 'again.jpg', status: 'duplicate', imageId: original.imageId }]);

    const theirs = await upload(server.url, someoneElse.token, [file]);
    expect(theirs.body.results?.[0]).toMatchObject({ status: 'kept' });
    expect(theirs.body.results?.[0]?.imageId).not.toBe(original.imageId);
    const image = await api.get<Image>(`/api/images/${theirs.body.results?.[0]?.imageId}`, someoneElse.token);
    expect(image.body).toMatchObject({ FileName: 'again.jpg', imageName: 'again' });
    expect(image.body.trimmedURL).toBeTruthy();
    expect(await storedKeys()).toEqual(before);
  });

  it('answers a request with nothing usable with the right status and every reason', async () => {
    const text = await upload(server.url, owner.token, [{ source: Buffer.from('hello, not a picture'), name: 'notes.jpg' }]);
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({ message: expect.stringMatching(/not an image/), results: [{ fileName: 'notes.jpg', status: 'refused' }] });

    const bomb = await upload(server.url, owner.token, [{ source: path.join(TESTDATA, 'broken/decompression_bomb.gif'), name: 'bomb.gif' }]);
    expect(bomb.status).toBe(413);

    const none = await fetch(new URL('/bulk-upload', server.url), { method: 'POST', body: new FormData(), headers: { authorization: `Bearer ${owner.token}` } });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ message: 'Please select images to upload.' });

    const json = await api.post('/bulk-upload', { images: [] }, owner.token);
    expect(json.status).toBe(415);

    const anonymous = await upload(server.url, undefined, [{ source: path.join(TESTDATA, 'tiny/mspaint-10x10.gif'), name: 'a.gif' }]);
    expect(anonymous.status).toBe(401);
  });
});
