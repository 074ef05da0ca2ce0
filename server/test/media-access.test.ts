import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '@photo/contract';
import { VerdictCache } from '../src/media-access/verdict-cache.js';
import { UrlSigner, signedMediaPath, urlExpiry } from '../src/storage/url-signer.js';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testSetups } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { TESTDATA, tinyPng, upload } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { ManualClock, TEST_JWT_SECRET, startTestServer, type TestServer } from './support/test-server.js';

/** A 1×1 iPhone XR JPEG with full EXIF: GPS 43.859 N 15.503 E. */
const GPS_PHOTO = 'tiny/iphone-xr-1x1-gps.jpg';

interface AccessData {
  allAccessUserData: { _id: string; accessTo: string; status: boolean }[];
  restrictedAccessUserData: { _id: string; accessTo: string; status: boolean }[];
}

describe.each(testSetups)('image URLs follow access ($database, $storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  const clock = new ManualClock();
  let admin: SignedUpPerson;
  let bob: SignedUpPerson;
  let carol: SignedUpPerson;
  let dave: SignedUpPerson;
  let gpsId: string;
  let pngIds: string[];
  let seed = 0;

  const get = (url: string | null | undefined, headers: Record<string, string> = {}) => {
    expect(url).toBeTruthy();
    return fetch(new URL(url ?? '', server.url), { headers });
  };
  const detail = async (id: string, token: string) => {
    const res = await api.get<Image>(`/api/images/${id}`, token);
    expect(res.status, `image ${id}`).toBe(200);
    return res.body;
  };
  const uploadPngs = async (token: string, count: number) => {
    const files = await Promise.all(Array.from({ length: count }, async () => ({ source: await tinyPng(9000 + seed++), name: `m-${seed}.png` })));
    const res = await upload(server.url, token, files);
    expect(res.status).toBe(200);
    return (res.body.results ?? []).map((r) => r.imageId ?? '');
  };
  const share = async (ids: string[], email: string, by = bob) =>
    expect((await api.post('/api/share-restricted', { imageIds: ids, emails: [email] }, by.token)).status).toBe(200);
  const restrictedRecord = async (owner: SignedUpPerson, email: string) =>
    (await api.get<AccessData>('/getUserAccessData', owner.token)).body.restrictedAccessUserData.find((r) => r.accessTo === email)!._id;
  const setStatus = async (owner: SignedUpPerson, recordId: string, status: boolean, type: 'restrictedAccess' | 'allAccess') =>
    expect((await api.put(`/updateUserStatus/${recordId}`, { status, type }, owner.token)).status).toBe(200);
  const viewerOf = (url: string | null) => new URL(url ?? '', server.url).searchParams.get('v');

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { clock, env: { ...s3?.env } });
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
    carol = await signUpConfirmed(server, api, { prefix: 'carol' });
    dave = await signUpConfirmed(server, api, { prefix: 'dave' });
    const res = await upload(server.url, bob.token, [{ source: path.join(TESTDATA, GPS_PHOTO), name: 'where.jpg' }]);
    expect(res.body.results?.[0]?.status).toBe('kept');
    gpsId = res.body.results?.[0]?.imageId ?? '';
    pngIds = await uploadPngs(bob.token, 2);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  it("loads a recipient's thumbnail and display; switching the record off stops the very same URLs at once", async () => {
    await share([gpsId, pngIds[0]!], carol.email);
    const image = await detail(gpsId, carol.token);
    expect(image.thumbnailURL).toMatch(/^\/media\/i\/\d+\/thumb\?v=u\d+&exp=\d+&sig=[A-Za-z0-9_-]{22}$/);
    expect(image.trimmedURL).toMatch(/^\/media\/i\/\d+\/display\?v=u\d+&exp=\d+&sig=[A-Za-z0-9_-]{22}$/);
    const etags: string[] = [];
    for (const url of [image.thumbnailURL, image.trimmedURL]) {
      const ok = await get(url);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('image/webp');
      expect(Number(ok.headers.get('content-length'))).toBe((await ok.arrayBuffer()).byteLength);
      etags.push(ok.headers.get('etag') ?? '');
    }

    const record = await restrictedRecord(bob, carol.email);
    await setStatus(bob, record, false, 'restrictedAccess');
    for (const [index, url] of [image.thumbnailURL, image.trimmedURL].entries()) {
      const gone = await get(url);
      expect(gone.status).toBe(404);
      expect(await gone.json()).toMatchObject({ message: expect.any(String) });
      // The browser's copy is not confirmed either: the access check comes before any 304.
      expect((await get(url, { 'if-none-match': etags[index]! })).status).toBe(404);
    }

    await setStatus(bob, record, true, 'restrictedAccess');
    const again = await detail(gpsId, carol.token);
    expect((await get(again.thumbnailURL)).status).toBe(200);
    expect((await get(again.trimmedURL)).status).toBe(200);
  });

  it('lets browsers keep photos but revalidate each use: private, no-cache, an ETag, 304 while access lasts', async () => {
    const image = await detail(pngIds[0]!, carol.token);
    const ok = await get(image.thumbnailURL);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('private, no-cache');
    const etag = ok.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[a-z0-9]+"$/i);
    const revalidated = await get(image.thumbnailURL, { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('cache-control')).toBe('private, no-cache');
    expect(revalidated.headers.get('etag')).toBe(etag);
    // Within one signing window a viewer gets the same URL again, so the browser's copy is found.
    expect((await detail(pngIds[0]!, carol.token)).thumbnailURL).toBe(image.thumbnailURL);
  });

  it('closes the URLs of a share-all link page when its record is switched off', async () => {
    const grandma = newPerson('grandma').email;
    const res = await api.post<{ link: string }>('/api/share-all', { accessTo: [grandma] }, admin.token);
    expect(res.status).toBe(200);
    const token = res.body.link.split('/').pop() ?? '';
    const page = await api.get<{ images: Image[] }>(`/shared-images/${token}`);
    expect(page.status).toBe(200);
    const shown = page.body.images.find((i) => i._id === gpsId)!;
    expect(viewerOf(shown.thumbnailURL)).toMatch(/^l\d+\.[0-9a-f]{16}$/);
    expect((await get(shown.thumbnailURL)).status).toBe(200);
    expect((await get(shown.trimmedURL)).status).toBe(200);

    const [record] = (await api.get<AccessData>('/getUserAccessData', admin.token)).body.allAccessUserData.filter((r) => r.accessTo === grandma);
    await setStatus(admin, record!._id, false, 'allAccess');
    expect((await get(shown.thumbnailURL)).status).toBe(404);
    expect((await get(shown.trimmedURL)).status).toBe(404);
    // Switched back on, the record has a new link (decision 0006 §3): the old link's photo URLs stay dead.
    await setStatus(admin, record!._id, true, 'allAccess');
    expect((await api.get(`/shared-images/${token}`)).status).toBe(404);
    expect((await get(shown.thumbnailURL)).status).toBe(404);
    expect((await get(shown.trimmedURL)).status).toBe(404);
    // The new link's page hands out URLs of its own, which load.
    const again = (await api.post<{ link: string }>('/api/share-all', { accessTo: [grandma] }, admin.token)).body.link;
    const fresh = (await api.get<{ images: Image[] }>(`/shared-images/${again.split('/').pop()}`)).body.images.find((i) => i._id === gpsId)!;
    expect(fresh.thumbnailURL).not.toBe(shown.thumbnailURL);
    expect(viewerOf(fresh.thumbnailURL)?.split('.')[0]).toBe(viewerOf(shown.thumbnailURL)?.split('.')[0]);
    expect((await get(fresh.thumbnailURL)).status).toBe(200);
    expect((await get(shown.thumbnailURL)).status).toBe(404);
  });

  it("deleting an image stops its URLs for everyone, the uploader's too", async () => {
    const [doomed] = await uploadPngs(bob.token, 1);
    await share([doomed!], carol.email);
    const mine = await detail(doomed!, bob.token);
    const hers = await detail(doomed!, carol.token);
    for (const url of [mine.thumbnailURL, mine.trimmedURL, hers.thumbnailURL, hers.trimmedURL]) expect((await get(url)).status).toBe(200);
    expect((await api.post('/api/deleteImages', { imageIds: [doomed] }, bob.token)).status).toBe(200);
    for (const url of [mine.thumbnailURL, mine.trimmedURL, hers.thumbnailURL, hers.trimmedURL]) expect((await get(url)).status).toBe(404);
  });

  it("a URL works only as signed: not for another viewer, image or variant, and not unsigned", async () => {
    // Dave sees the image too, so only the signature can refuse him.
    await share([pngIds[0]!], dave.email);
    const carolsUrl = new URL((await detail(pngIds[0]!, carol.token)).thumbnailURL ?? '', server.url);
    const davesViewer = viewerOf((await detail(pngIds[0]!, dave.token)).thumbnailURL);
    expect(davesViewer).not.toBe(carolsUrl.searchParams.get('v'));
    const swapped = new URL(carolsUrl);
    swapped.searchParams.set('v', davesViewer ?? '');
    expect((await fetch(swapped)).status).toBe(404);
    const otherImage = new URL(carolsUrl);
    otherImage.pathname = `/media/i/${gpsId}/thumb`;
    expect((await fetch(otherImage)).status).toBe(404);
    const otherVariant = new URL(carolsUrl);
    otherVariant.pathname = otherVariant.pathname.replace('/thumb', '/display');
    expect((await fetch(otherVariant)).status).toBe(404);
    const tampered = new URL(carolsUrl);
    tampered.searchParams.set('sig', 'x'.repeat(32));
    expect((await fetch(tampered)).status).toBe(404);
    expect((await fetch(new URL(carolsUrl.pathname, server.url))).status).toBe(404);
    expect((await fetch(carolsUrl)).status).toBe(200);
  });

  it('an expired URL is refused; the one handed out then loads', async () => {
    const image = await detail(pngIds[1]!, bob.token);
    clock.advance(13 * 3600 * 1000);
    try {
      expect((await get(image.thumbnailURL)).status).toBe(404);
      const fresh = await detail(pngIds[1]!, bob.token);
      expect(fresh.thumbnailURL).not.toBe(image.thumbnailURL);
      expect((await get(fresh.thumbnailURL)).status).toBe(200);
    } finally {
      clock.advance(-13 * 3600 * 1000);
    }
  });

  it("refuses the old kind of URL for a photo's stored files (storage key, no viewer)", async () => {
    const hash = createHash('sha256').update(await readFile(path.join(TESTDATA, GPS_PHOTO))).digest('hex');
    const signer = new UrlSigner(TEST_JWT_SECRET);
    const old = signedMediaPath(signer, `derived/${hash}/thumb.webp`, urlExpiry(clock.now()));
    expect((await get(old)).status).toBe(404);
  });

  it('the uploader loads their own images; the admin loads anyone’s', async () => {
    for (const token of [bob.token, admin.token]) {
      const image = await detail(gpsId, token);
      expect((await get(image.thumbnailURL)).status).toBe(200);
      expect((await get(image.trimmedURL)).status).toBe(200);
    }
  });

  it('streams profile pictures through the app too (cached for a year), so images come from nowhere else', async () => {
    const form = new FormData();
    form.append('profileImage', new Blob([await tinyPng(4242, 64, 64)]), 'me.png');
    const res = await fetch(new URL('/upload-profile-image', server.url), { method: 'POST', body: form, headers: { authorization: `Bearer ${dave.token}` } });
    const { profileImage } = (await res.json()) as { profileImage: string };
    expect(profileImage).toMatch(/^\/media\/profiles\/[0-9a-f]{64}\.webp\?exp=\d+&sig=/);
    const avatar = await get(profileImage);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const csp = (await fetch(new URL('/api/health', server.url))).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("img-src 'self' data: blob:;");
    if (s3) expect(csp).not.toContain(s3.endpoint);
  });

  it('gives GPS to the uploader and admins only, in every answer presenting images', async () => {
    const located = (image: Image | undefined) => image?.gps;
    const taken = { latitude: expect.closeTo(43.859, 2) as number, longitude: expect.closeTo(15.503, 2) as number };
    expect(located(await detail(gpsId, bob.token))).toEqual(taken);
    expect(located(await detail(gpsId, admin.token))).toEqual(taken);
    expect(located(await detail(gpsId, carol.token))).toBeNull();
    // Camera and date stay for everyone.
    expect((await detail(gpsId, carol.token)).camera).toBe((await detail(gpsId, bob.token)).camera);

    const inGallery = async (token: string) =>
      (await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=50', token)).body.images.find((i) => i._id === gpsId);
    expect(located(await inGallery(bob.token))).toEqual(taken);
    expect(located(await inGallery(admin.token))).toEqual(taken);
    expect(located(await inGallery(carol.token))).toBeNull();
    const searched = (await api.get<{ images: Image[] }>('/search?query=where', carol.token)).body.images.find((i) => i._id === gpsId);
    expect(searched).toBeDefined();
    expect(located(searched)).toBeNull();
    const sharedWithCarol = await api.get<{ userAccessData: Image[] }>('/sharedWithMe', carol.token);
    expect(located(sharedWithCarol.body.userAccessData.find((i) => i._id === gpsId))).toBeNull();
    const byBob = await api.post<{ images: Image[] }>('/api/shared-with-user', { userName: carol.email }, bob.token);
    expect(located(byBob.body.images.find((i) => i._id === gpsId))).toEqual(taken);

    const link = (await api.post<{ link: string }>('/api/share-all', { accessTo: [newPerson('aunt').email] }, admin.token)).body.link;
    const page = await api.get<{ images: Image[] }>(`/shared-images/${link.split('/').pop()}`);
    expect(page.body.images.find((i) => i._id === gpsId)).toBeDefined();
    expect(page.body.images.every((i) => i.gps === null)).toBe(true);
  });
});

describe('VerdictCache', () => {
  const keys = { thumb: 'derived/a/thumb.webp', display: 'derived/a/display.webp' };

  it('answers only for the library version an answer was read at', () => {
    const cache = new VerdictCache();
    cache.set('user:1', 7, 42, keys);
    cache.set('user:1', 7, 43, null);
    expect(cache.get('user:1', 7, 42)).toEqual(keys);
    expect(cache.get('user:1', 7, 43)).toBeNull();
    expect(cache.get('user:1', 8, 42)).toBeUndefined();
    expect(cache.get('user:2', 7, 42)).toBeUndefined();
  });

  it('never lets an answer read at an older version replace newer ones', () => {
    const cache = new VerdictCache();
    cache.set('user:1', 8, 42, null);
    cache.set('user:1', 7, 42, keys);
    expect(cache.get('user:1', 8, 42)).toBeNull();
  });

  it('stays bounded: least recently used scopes go first, and a full scope starts over', () => {
    const cache = new VerdictCache(2, 3);
    cache.set('a', 1, 1, keys);
    cache.set('b', 1, 1, keys);
    expect(cache.get('a', 1, 1)).toEqual(keys);
    cache.set('c', 1, 1, keys);
    expect(cache.get('b', 1, 1)).toBeUndefined();
    expect(cache.get('a', 1, 1)).toEqual(keys);
    for (const id of [2, 3, 4]) cache.set('a', 1, id, keys);
    expect(cache.get('a', 1, 1)).toBeUndefined();
    expect(cache.get('a', 1, 4)).toEqual(keys);
  });
});
