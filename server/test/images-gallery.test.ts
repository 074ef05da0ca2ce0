import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '@photo/contract';
import { testDatabases } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { TESTDATA, listFiles, tinyPng, upload } from './support/images.js';
import { ManualClock, startTestServer, type TestServer } from './support/test-server.js';

interface GridPage {
  images: Image[];
  pagination: { currentPage: number; hasMore: boolean; totalImages: number };
}

/** Newest taken first, ties by id (decision 0009). */
function galleryOrder(images: Image[]): string[] {
  return [...images]
    .sort((a, b) => b.sortedAt.localeCompare(a.sortedAt) || Number(b._id) - Number(a._id))
    .map((image) => image._id);
}

describe.each(testDatabases)('gallery, detail and delete on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  const clock = new ManualClock();
  let admin: { token: string };
  let alice: { token: string };
  let bob: { token: string };
  let aliceIds: string[];
  let bobIds: string[];

  async function signUp() {
    const res = await api.post<{ token: string }>('/signup', newPerson());
    expect(res.status).toBe(201);
    return res.body;
  }

  async function uploadTiny(token: string, seeds: number[]): Promise<string[]> {
    const files = await Promise.all(seeds.map(async (seed) => ({ source: await tinyPng(seed), name: `tiny-${seed}.png` })));
    const res = await upload(server.url, token, files);
    expect(res.status).toBe(200);
    return (res.body.results ?? []).map((r) => r.imageId ?? '');
  }

  const page = (token: string, n: number, limit = 50) => api.get<GridPage>(`/api/gridimages?page=${n}&limit=${limit}`, token);

  beforeAll(async () => {
    // Deletes here are final (files counted at once): TRASH_DAYS=0. The Trash is trash.test.ts's.
    server = await startTestServer(database, { clock, env: { TRASH_DAYS: '0' } });
    api = apiClient(server.url);
    admin = await signUp();
    alice = await signUp();
    bob = await signUp();
    aliceIds = await uploadTiny(alice.token, Array.from({ length: 120 }, (_, i) => i));
    bobIds = await uploadTiny(bob.token, [1000, 1001, 1002]);
  }, 60_000);
  afterAll(async () => server?.close());

  it('pages through the images a person may see, newest first, with the spec pagination', async () => {
    const seen: Image[] = [];
    const expected = [
      { count: 50, hasMore: true },
      { count: 50, hasMore: true },
      { count: 20, hasMore: false },
      { count: 0, hasMore: false },
    ];
    for (const [index, want] of expected.entries()) {
      const res = await page(alice.token, index + 1);
      expect(res.status).toBe(200);
      expect(res.body.images).toHaveLength(want.count);
      expect(res.body.pagination).toEqual({ currentPage: index + 1, hasMore: want.hasMore, totalImages: 120 });
      seen.push(...res.body.images);
    }
    // Newest first (decision 0009): these PNGs carry no date, so they sort by upload time, ties by id.
    expect(seen.map((image) => image._id).sort()).toEqual([...aliceIds].sort());
    expect(seen.map((image) => image._id)).toEqual(galleryOrder(seen));
    expect(seen.every((image) => image.dateSource === 'upload' && image.sortedAt === new Date(image.createdAt).toISOString())).toBe(true);
    // An admin sees everyone's; a plain user only their own (DECISIONS §3).
    expect((await page(admin.token, 1)).body.pagination.totalImages).toBe(123);
    const bobs = (await page(bob.token, 1)).body.images;
    expect(bobs.map((i) => i._id).sort()).toEqual([...bobIds].sort());
    expect(bobs.map((i) => i._id)).toEqual(galleryOrder(bobs));
  });

  it('lists everything without paging for previous/next, also as the older plain array', async () => {
    const all = await api.get<{ images: Image[]; pagination?: unknown }>('/api/gridimages', alice.token);
    expect(all.body.images).toHaveLength(120);
    expect(all.body.pagination).toBeUndefined();
    const old = await api.get<Image[]>('/gridimages', bob.token);
    expect(old.body.map((i) => i._id)).toEqual(galleryOrder(old.body));
    expect(old.body.map((i) => i._id).sort()).toEqual([...bobIds].sort());
    const library = await api.get<GridPage>('/library?page=1&limit=2', alice.token);
    expect(library.body.pagination).toEqual({ currentPage: 1, hasMore: true, totalImages: 120 });
  });

  it('refuses bad paging with a 400 and a token-less call with a 401', async () => {
    expect((await api.get('/api/gridimages?page=0&limit=50', alice.token)).status).toBe(400);
    expect((await api.get('/api/gridimages?page=1&limit=500', alice.token)).status).toBe(400);
    expect((await api.get('/api/gridimages?page=abc', alice.token)).status).toBe(400);
    expect((await api.get('/api/gridimages?page=1&limit=50')).status).toBe(401);
  });

  it("answers 404 for an image the person may not see, the same as for one that does not exist", async () => {
    const [aliceImage] = aliceIds;
    expect((await api.get(`/api/images/${aliceImage}`, bob.token)).body).toMatchObject({ message: 'Image not found' });
    expect((await api.get(`/api/images/${aliceImage}`, bob.token)).status).toBe(404);
    expect((await api.get('/api/images/999999', alice.token)).status).toBe(404);
    expect((await api.get('/api/images/not-a-number', alice.token)).status).toBe(404);
    expect((await api.get<Image>(`/api/images/${aliceImage}`, admin.token)).body._id).toBe(aliceImage);
  });

  it('names the previous and next image in gallery order, wrapping around, for images the person may see', async () => {
    const order = galleryOrder((await api.get<{ images: Image[] }>('/api/gridimages', alice.token)).body.images);
    const at = async (id: string | undefined) => (await api.get<{ previous: string | null; next: string | null }>(`/api/images/${id}/neighbours`, alice.token)).body;
    expect(await at(order[5])).toEqual({ previous: order[4], next: order[6] });
    expect(await at(order[0])).toEqual({ previous: order.at(-1), next: order[1] });
    expect(await at(order.at(-1))).toEqual({ previous: order.at(-2), next: order[0] });
    expect((await api.get(`/api/images/${order[0]}/neighbours`, bob.token)).status).toBe(404);
    const loner = await signUp();
    const [onlyOne] = await uploadTiny(loner.token, [7000]);
    expect(await (await api.get(`/api/images/${onlyOne}/neighbours`, loner.token)).body).toEqual({ previous: null, next: null });
    await api.post('/api/deleteImages', { imageIds: [onlyOne] }, loner.token);
  });

  it('finds images by name', async () => {
    const res = await api.get<{ images: Image[] }>('/search?query=TINY-11', alice.token);
    expect(res.body.images.map((i) => i.FileName).sort()).toEqual(['tiny-11.png', 'tiny-110.png', 'tiny-111.png', 'tiny-112.png', 'tiny-113.png', 'tiny-114.png', 'tiny-115.png', 'tiny-116.png', 'tiny-117.png', 'tiny-118.png', 'tiny-119.png']);
    expect((await api.get<{ images: Image[] }>('/search?query=tiny', bob.token)).body.images).toHaveLength(3);
    expect((await api.get<{ images: Image[] }>('/search?query=%25', alice.token)).body.images).toHaveLength(0);
  });

  it('serves derived files only through signed URLs that expire, revalidated by ETag on each use (media-access.test.ts has the rest)', async () => {
    const image = (await api.get<Image>(`/api/images/${aliceIds[0]}`, alice.token)).body;
    const url = new URL(image.thumbnailURL ?? '', server.url);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('private, no-cache');
    const etag = ok.headers.get('etag') ?? '';
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);

    const tampered = new URL(url);
    tampered.searchParams.set('sig', 'x'.repeat(32));
    expect((await fetch(tampered)).status).toBe(404);
    const otherKey = new URL(url);
    otherKey.pathname = otherKey.pathname.replace('/thumb', '/display');
    expect((await fetch(otherKey)).status).toBe(404);
    const unsigned = new URL(url.pathname, server.url);
    expect((await fetch(unsigned)).status).toBe(404);

    clock.advance(13 * 3600 * 1000);
    try {
      expect((await fetch(url)).status).toBe(404);
      const fresh = (await api.get<Image>(`/api/images/${aliceIds[0]}`, alice.token)).body.thumbnailURL;
      expect(fresh).not.toBe(image.thumbnailURL);
      expect((await fetch(new URL(fresh ?? '', server.url))).status).toBe(200);
    } finally {
      clock.advance(-13 * 3600 * 1000);
    }
  });

  it('deletes all or nothing: only the uploader or an admin, and a refused id is named', async () => {
    const [a1, a2, a3] = aliceIds;
    const [b1] = bobIds;
    const refused = await api.post('/api/deleteImages', { imageIds: [b1, a1] }, bob.token);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ message: expect.stringContaining(`Image ${a1}`) });
    expect((await page(bob.token, 1)).body.pagination.totalImages).toBe(3);
    expect((await page(alice.token, 1)).body.pagination.totalImages).toBe(120);

    expect((await api.post('/api/deleteImages', { imageIds: [] }, alice.token)).status).toBe(400);
    expect((await api.post('/api/deleteImages', { imageIds: [a1, a2] }, alice.token)).body).toEqual({ message: '2 images deleted successfully.' });
    expect((await api.get(`/api/images/${a1}`, alice.token)).status).toBe(404);
    expect((await api.post('/api/deleteImages', { imageIds: [a3] }, admin.token)).status).toBe(200);
    expect((await page(alice.token, 1)).body.pagination.totalImages).toBe(117);
    // 120 - 3 deleted pictures of Alice's + Bob's 3, each an original and two derived files.
    expect(await listFiles(path.join(server.dataDir, 'media'))).toHaveLength((117 + 3) * 3);
  });

  it('keeps a stored file while another upload still uses it', async () => {
    const photo = { source: path.join(TESTDATA, 'camera/FujiFilm FinePixS2Pro.jpg'), name: 'fuji.jpg' };
    const mine = (await upload(server.url, alice.token, [photo])).body.results?.[0]?.imageId;
    const theirs = (await upload(server.url, bob.token, [photo])).body.results?.[0]?.imageId;
    const before = await listFiles(path.join(server.dataDir, 'media'));
    expect((await api.post('/api/deleteImages', { imageIds: [mine] }, alice.token)).status).toBe(200);
    expect(await listFiles(path.join(server.dataDir, 'media'))).toEqual(before);
    const image = (await api.get<Image>(`/api/images/${theirs}`, bob.token)).body;
    expect((await fetch(new URL(image.trimmedURL ?? '', server.url))).status).toBe(200);
    expect((await api.post('/api/deleteImages', { imageIds: [theirs] }, bob.token)).status).toBe(200);
    expect(await listFiles(path.join(server.dataDir, 'media'))).toHaveLength(before.length - 3);
  });

  it('shows new uploads and linked copies at once, and forgets deleted ones, after the list was read', async () => {
    const carol = await signUp();
    const before = await page(carol.token, 1);
    expect(before.body.pagination.totalImages).toBe(0);
    const [first] = await uploadTiny(carol.token, [8000]);
    // Bob's picture, uploaded again by Carol: already processed, so it is visible at once.
    const photo = { source: path.join(TESTDATA, 'camera/Canon EOS REBEL T3i.jpg'), name: 'canon.jpg' };
    await upload(server.url, bob.token, [photo]);
    const linked = (await upload(server.url, carol.token, [photo])).body.results?.[0]?.imageId;
    const after = await page(carol.token, 1);
    // The camera photo was taken years ago: it sorts after the PNG uploaded just now (decision 0009).
    expect(after.body.images.map((i) => i._id)).toEqual([first, linked]);
    expect(after.body.pagination.totalImages).toBe(2);
    await api.post('/api/deleteImages', { imageIds: [first] }, carol.token);
    expect((await page(carol.token, 1)).body.images.map((i) => i._id)).toEqual([linked]);
  });

  it('hides an image until its derived files exist', async () => {
    const [id] = await uploadTiny(alice.token, [5000]);
    // What a pending image looks like; every write that changes visibility also bumps the version.
    await server.sql('update images set ready = 0 where id = ?', [Number(id)]);
    await server.sql('update library_state set version = version + 1, reset_version = version + 1');
    expect((await api.get(`/api/images/${id}`, alice.token)).status).toBe(404);
    expect((await page(alice.token, 1)).body.images.map((i) => i._id)).not.toContain(id);
    await server.sql('update images set ready = 1 where id = ?', [Number(id)]);
    await server.sql('update library_state set version = version + 1, reset_version = version + 1');
    expect((await page(alice.token, 1)).body.images[0]?._id).toBe(id);
  });
});

describe('upload size limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { env: { MAX_UPLOAD_MB: '1' } });
  });
  afterAll(async () => server?.close());

  it('refuses a file over MAX_UPLOAD_MB without storing anything, and still takes the others', async () => {
    const api = apiClient(server.url);
    const { token } = (await api.post<{ token: string }>('/signup', newPerson())).body;
    const big = { source: path.join(TESTDATA, 'large/canon-eos-5d-mark-iii-22mp.jpg'), name: 'big.jpg' };
    const alone = await upload(server.url, token, [big]);
    expect(alone.status).toBe(413);
    expect(alone.body.results?.[0]).toMatchObject({ status: 'refused', reason: 'The file is larger than the 1 MB limit.' });
    const mixed = await upload(server.url, token, [big, { source: await tinyPng(1), name: 'small.png' }]);
    expect(mixed.status).toBe(200);
    expect(mixed.body.results?.map((r) => r.status)).toEqual(['refused', 'kept']);
    expect(await listFiles(path.join(server.dataDir, 'media'))).toHaveLength(3);
    expect(await listFiles(path.join(server.dataDir, 'tmp'))).toEqual([]);
  });
});
