import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testSetups } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { TESTDATA, upload } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { unzip } from './support/zips.js';

/** Photos whose files say where they were taken: a camera JPEG, an iPhone HEIC, a WebP (EXIF after the pixels). */
const PLACED = ['camera/Apple iPhone 4.jpg', 'formats/iphone-xr-orient6-gps.heic', 'formats/iphone-x-orient6-gps.webp'] as const;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The file's EXIF as exifr reads it: from the file, or (WebP, which exifr cannot open) the EXIF block sharp finds in it. */
async function exifOf(bytes: Buffer): Promise<Buffer> {
  if (bytes.subarray(8, 12).toString('latin1') !== 'WEBP') return bytes;
  const exif = (await sharp(bytes).metadata()).exif ?? Buffer.alloc(0);
  return exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
}

async function positionOf(bytes: Buffer): Promise<{ latitude: number; longitude: number } | undefined> {
  return (await exifr.gps(await exifOf(bytes))) ?? undefined;
}

/** What else the file says: kept for everyone. */
async function factsOf(bytes: Buffer) {
  const tags = (await exifr.parse(await exifOf(bytes), { pick: ['Make', 'Model', 'DateTimeOriginal'] })) as Record<string, unknown> | undefined;
  return { make: tags?.['Make'], model: tags?.['Model'], taken: String(tags?.['DateTimeOriginal']) };
}

/**
 * A photo's location only ever reaches its uploader and admins (DECISIONS §3, decision 0006): the
 * original they download is the file as uploaded; anyone else's — a share's recipient, a share-all
 * link — is the same file, the same length, with its position blanked (downloads/location/).
 */
describe.each(testSetups)('downloads without the position ($database, $storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  let admin: SignedUpPerson;
  let bob: SignedUpPerson;
  let carol: SignedUpPerson;
  let linkToken: string;
  const photos: { id: string; name: string; bytes: Buffer }[] = [];

  const download = async (call: 'original' | 'zip', body: unknown, token: string) => {
    const made = await api.post<{ url: string }>(`/api/downloads/${call}`, body, token);
    expect(made.status).toBe(200);
    const res = await fetch(new URL(made.body.url, server.url));
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };
  const fromLink = async (suffix: string) => {
    const res = await fetch(new URL(`/shared-images/${linkToken}/download${suffix}`, server.url));
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { env: { ...s3?.env } });
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
    carol = await signUpConfirmed(server, api, { prefix: 'carol' });
    for (const file of PLACED) {
      const source = path.join(TESTDATA, file);
      const name = path.basename(file);
      const res = await upload(server.url, bob.token, [{ source, name }]);
      expect(res.body.results?.[0]?.status, file).toBe('kept');
      photos.push({ id: res.body.results?.[0]?.imageId ?? '', name, bytes: await readFile(source) });
    }
    expect((await api.post('/api/share-restricted', { imageIds: photos.map((p) => p.id), emails: [carol.email] }, bob.token)).status).toBe(200);
    const shared = await api.post<{ link: string }>('/api/share-all', { accessTo: [newPerson('grandpa').email] }, admin.token);
    linkToken = shared.body.link.split('/').pop() ?? '';
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  it('every test photo says where it was taken (else this test proves nothing)', async () => {
    for (const photo of photos) expect(await positionOf(photo.bytes), photo.name).toBeDefined();
  });

  it('gives the uploader and admins the original byte for byte, position included', async () => {
    for (const photo of photos) {
      for (const person of [bob, admin]) {
        const bytes = await download('original', { id: photo.id }, person.token);
        expect(sha256(bytes), photo.name).toBe(sha256(photo.bytes));
      }
    }
    const zipped = await unzip(await download('zip', { ids: photos.map((p) => p.id) }, bob.token));
    for (const photo of photos) expect(sha256(zipped.get(photo.name)!), photo.name).toBe(sha256(photo.bytes));
  });

  it("gives a share's recipient the same file without its position: one original, and in a zip", async () => {
    const zipped = await unzip(await download('zip', { ids: photos.map((p) => p.id) }, carol.token));
    for (const photo of photos) {
      for (const bytes of [await download('original', { id: photo.id }, carol.token), zipped.get(photo.name)!]) {
        expect(bytes.length, photo.name).toBe(photo.bytes.length);
        expect(await positionOf(bytes), photo.name).toBeUndefined();
        expect(await factsOf(bytes), photo.name).toEqual(await factsOf(photo.bytes));
      }
    }
  });

  it('gives a share-all link the files without their positions, one by one and all at once', async () => {
    const all = await unzip(await fromLink(''));
    for (const photo of photos) {
      for (const bytes of [await fromLink(`/${photo.id}`), all.get(photo.name)!]) {
        expect(bytes.length, photo.name).toBe(photo.bytes.length);
        expect(await positionOf(bytes), photo.name).toBeUndefined();
        expect(await factsOf(bytes), photo.name).toEqual(await factsOf(photo.bytes));
      }
    }
  });
});
