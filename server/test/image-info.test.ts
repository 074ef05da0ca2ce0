import { openAsBlob } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Image, ImageInfo } from '@photo/contract';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testSetups } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { TESTDATA, tinyPng, upload } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const HEIC = path.join(TESTDATA, 'formats/IMG_2927.HEIC');
const WITH_GPS = path.join(TESTDATA, 'tiny/iphone-xr-1x1-gps.jpg');

/** POST /bulk-upload as the web app sends it: a `lastModified` field before each file that has one. */
async function uploadWithDates(
  baseUrl: string,
  token: string,
  files: { bytes: Buffer; name: string; lastModified?: string }[],
): Promise<{ status: number; ids: (string | undefined)[] }> {
  const form = new FormData();
  for (const file of files) {
    if (file.lastModified !== undefined) form.append('lastModified', file.lastModified);
    form.append('images', new Blob([file.bytes]), file.name);
  }
  const response = await fetch(new URL('/bulk-upload', baseUrl), { method: 'POST', body: form, headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
  const body = (await response.json()) as { results?: { imageId?: string }[] };
  return { status: response.status, ids: (body.results ?? []).map((result) => result.imageId) };
}

describe.each(testSetups)('the info panel call on $database ($storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  let admin: SignedUpPerson;
  let alice: SignedUpPerson;
  let bob: SignedUpPerson;
  let carol: SignedUpPerson;
  let heicId: string;
  let gpsId: string;

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { env: { ...s3?.env } });
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    alice = await signUpConfirmed(server, api, { prefix: 'alice' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
    carol = await signUpConfirmed(server, api, { prefix: 'carol' });
    const res = await upload(server.url, alice.token, [
      { source: HEIC, name: 'IMG_2927.HEIC' },
      { source: WITH_GPS, name: 'tiny.jpg' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    [heicId, gpsId] = (res.body.results ?? []).map((result) => result.imageId ?? '') as [string, string];
    expect((await api.post('/api/share-restricted', { imageIds: [heicId, gpsId], emails: [bob.email] }, alice.token)).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  const info = (id: string, person?: SignedUpPerson) => api.get<ImageInfo>(`/api/images/${id}/info`, person?.token);

  it('answers what the camera recorded, the file, and where the photo sorts', async () => {
    const res = await info(heicId, alice);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _id: heicId,
      fileName: 'IMG_2927.HEIC',
      fileSize: (await openAsBlob(HEIC)).size,
      width: 3024,
      height: 4032,
      takenAt: '2020-05-04T18:39:11',
      takenOffset: '-04:00',
      dateSource: 'taken',
      // 18:39:11 at -04:00
      sortedAt: '2020-05-04T22:39:11.000Z',
      camera: 'Apple iPhone 11 Pro',
      lens: 'iPhone 11 Pro back triple camera 4.25mm f/1.8',
      aperture: 1.8,
      exposureTime: expect.closeTo(1 / 493, 6) as number,
      iso: 32,
      focalLength: 4.25,
      place: null,
      uploadedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) as string,
    });
  });

  it('shows the place to the uploader and admins only', async () => {
    for (const person of [alice, admin]) {
      const place = (await info(gpsId, person)).body.place;
      expect(place?.latitude).toBeCloseTo(43.8595, 3);
      expect(place?.longitude).toBeCloseTo(15.5033, 3);
    }
    const shared = await info(gpsId, bob);
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ camera: 'Apple iPhone XR', place: null });
  });

  it('is a 404 for images one does not see, in the Trash or not there; a 401 without a session', async () => {
    expect((await info(heicId, carol)).status).toBe(404);
    expect((await info('999999', alice)).status).toBe(404);
    expect((await info('abc', alice)).status).toBe(404);
    expect((await info(heicId)).status).toBe(401);
    const res = await upload(server.url, alice.token, [{ source: await tinyPng(4242), name: 'trashed.png' }]);
    const trashed = res.body.results?.[0]?.imageId ?? '';
    expect((await info(trashed, alice)).status).toBe(200);
    expect((await api.post('/api/deleteImages', { imageIds: [trashed] }, alice.token)).status).toBe(200);
    expect((await info(trashed, alice)).status).toBe(404);
    expect((await info(trashed, admin)).status).toBe(404);
  });

  it("sorts a photo without a date by the file's last-modified time the client sent", async () => {
    const in2012 = Date.UTC(2012, 5, 15, 10, 30, 0);
    const { status, ids } = await uploadWithDates(server.url, alice.token, [
      { bytes: await tinyPng(5001), name: 'scan.png', lastModified: String(in2012) },
      // The field belongs to the file right after it only.
      { bytes: await tinyPng(5002), name: 'next.png' },
      { bytes: await tinyPng(5003), name: 'bad-date.png', lastModified: 'yesterday' },
      { bytes: await tinyPng(5004), name: 'future.png', lastModified: String(Date.now() + 30 * 86_400_000) },
    ]);
    expect(status).toBe(200);
    const [scan, next, bad, future] = ids as [string, string, string, string];

    const image = (await api.get<Image>(`/api/images/${scan}`, alice.token)).body;
    expect(image).toMatchObject({ sortedAt: '2012-06-15T10:30:00.000Z', dateSource: 'file' });
    expect((await info(scan, alice)).body).toMatchObject({ takenAt: null, dateSource: 'file', sortedAt: '2012-06-15T10:30:00.000Z' });
    for (const id of [next, bad, future]) {
      const other = (await info(id, alice)).body;
      expect(other.dateSource, id).toBe('upload');
      expect(other.sortedAt).toBe(new Date(other.uploadedAt).toISOString());
    }
    // In gallery order it sits in 2012: after the 2020 HEIC, not with today's uploads.
    const gallery = (await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=50', alice.token)).body.images.map((i) => i._id);
    expect(gallery.indexOf(scan)).toBeGreaterThan(gallery.indexOf(heicId));
    expect(gallery.indexOf(next)).toBeLessThan(gallery.indexOf(heicId));
  });
});
