import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls } from '@photo/contract';
import { type SignedUpPerson, signUpConfirmed } from './support/accounts.js';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { TESTDATA, tinyPng, upload } from './support/images.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// Gallery pages and search answers are written as JSON text from pieces kept with each image's card
// (image-cards/card-json.ts) instead of objects checked by zod: the text must be exactly what the
// contract's serializer writes for the same images and viewer — `/library` (JSON for API clients)
// still goes the object-and-zod way, so the two are compared byte for byte.
describe.each(testDatabases)('image JSON text written from cards on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let admin: SignedUpPerson;
  let bob: SignedUpPerson;
  let carol: SignedUpPerson;
  let ids: string[];

  const text = async (pathAndQuery: string, token: string) => {
    const res = await fetch(new URL(pathAndQuery, server.url), { headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
    expect(res.status, pathAndQuery).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
    carol = await signUpConfirmed(server, api, { prefix: 'carol' });
    // A camera photo with a position and a date, and small PNGs with names that need escaping in JSON.
    const res = await upload(server.url, bob.token, [
      { source: path.join(TESTDATA, 'tiny/iphone-xr-1x1-gps.jpg'), name: 'where.jpg' },
      { source: await tinyPng(4100), name: 'Ünïcödé ☃ "quoted" back\\slash.png' },
      { source: await tinyPng(4101), name: 'tab\tand émoji 📷.png' },
      { source: await tinyPng(4102), name: 'plain.png' },
    ]);
    expect(res.status).toBe(200);
    ids = (res.body.results ?? []).map((r) => r.imageId ?? '');
    expect(ids.every(Boolean)).toBe(true);
    const [gps, quoted, emoji] = ids as [string, string, string, string];
    for (const [id, tag] of [[gps, 'beach'], [gps, 'sunset "golden"'], [quoted, 'beach'], [emoji, 'ünï']] as const) {
      expect((await api.post(`/images/${id}/addTag`, { tag }, bob.token)).status).toBe(200);
    }
    expect((await api.post('/api/share-restricted', { imageIds: [gps, quoted, emoji], emails: [carol.email] }, bob.token)).status).toBe(200);
    expect((await api.post(`/images/${gps}/like`, { liked: true }, carol.token)).status).toBe(200);
    expect((await api.post(`/images/${quoted}/like`, { liked: true }, bob.token)).status).toBe(200);
  }, 120_000);
  afterAll(async () => server?.close());

  it('writes a gallery page exactly as the zod-checked answer for the same page, for the uploader, a recipient and an admin', async () => {
    for (const person of [bob, carol, admin]) {
      // Twice: the first builds the pieces, the second joins kept ones (and may come from the page cache).
      for (let round = 0; round < 2; round += 1) {
        const fast = await text('/api/gridimages?page=1&limit=50', person.token);
        const checked = await text('/library?page=1&limit=50', person.token);
        expect(fast).toBe(checked);
        expect(JSON.stringify(calls.getGridImages.response.parse(JSON.parse(fast)))).toBe(fast);
      }
    }
    // What differs by viewer is there: the uploader sees the position, the recipient does not, and `liked` is each one's own.
    const forBob = JSON.parse(await text('/api/gridimages?page=1&limit=50', bob.token)) as { images: { _id: string; gps: unknown; liked: boolean; likes: number }[] };
    const forCarol = JSON.parse(await text('/api/gridimages?page=1&limit=50', carol.token)) as typeof forBob;
    const gpsOf = (page: typeof forBob) => page.images.find((image) => image._id === ids[0]);
    expect(gpsOf(forBob)?.gps).not.toBeNull();
    expect(gpsOf(forCarol)?.gps).toBeNull();
    expect([gpsOf(forBob)?.liked, gpsOf(forCarol)?.liked, gpsOf(forCarol)?.likes]).toEqual([false, true, 1]);
  });

  it('shows a change on the next page read, and pages of other sizes stay the zod-checked text', async () => {
    expect((await api.post(`/images/${ids[3]}/addTag`, { tag: 'after' }, bob.token)).status).toBe(200);
    const fast = await text('/api/gridimages?page=1&limit=50', bob.token);
    expect(fast).toContain('"tags":["after"]');
    expect(fast).toBe(await text('/library?page=1&limit=50', bob.token));
    expect(await text('/api/gridimages?page=2&limit=2', bob.token)).toBe(await text('/library?page=2&limit=2', bob.token));
  });

  it('writes the unpaged lists (previous/next, the older detail view) as the zod-checked text of the whole gallery', async () => {
    for (const person of [bob, carol, admin]) {
      const whole = await text('/api/gridimages', person.token);
      expect(JSON.stringify(calls.getGridImages.response.parse(JSON.parse(whole)))).toBe(whole);
      const gallery = JSON.parse(await text('/library?page=1&limit=50', person.token)) as { images: unknown[] };
      expect(whole).toBe(JSON.stringify({ images: gallery.images }));
      const plain = await text('/gridimages', person.token);
      expect(JSON.stringify(calls.getGridImagesOld.response.parse(JSON.parse(plain)))).toBe(plain);
      expect(plain).toBe(JSON.stringify(gallery.images));
    }
    expect((JSON.parse(await text('/gridimages', carol.token)) as unknown[]).length).toBe(3);
  });

  it('writes search answers that the contract checks unchanged, with the same image text as the gallery', async () => {
    for (const person of [bob, carol]) {
      const found = await text('/search?query=beach', person.token);
      expect(JSON.stringify(calls.searchImages.response.parse(JSON.parse(found)))).toBe(found);
      const images = (JSON.parse(found) as { images: { _id: string }[] }).images;
      expect(images.map((image) => image._id).sort()).toEqual([ids[0], ids[1]].sort());
      const gallery = JSON.parse(await text('/api/gridimages?page=1&limit=50', person.token)) as { images: { _id: string }[] };
      for (const image of images) expect(image).toEqual(gallery.images.find((shown) => shown._id === image._id));
    }
    expect(await text('/search?query=%20', bob.token)).toBe('{"images":[]}');
  });

  it('answers many people side by side, each with their own text (answers share the bytes they are sent from)', async () => {
    // http/answer-scratch.ts lends the same bytes to one answer after another: an answer must be
    // whole and its viewer's own even when dozens are made and sent in the same turns.
    const asks = [
      ...[bob, carol, admin].flatMap((person) => [
        { person, path: '/api/gridimages?page=1&limit=50' },
        { person, path: '/api/gridimages?page=2&limit=1' },
        { person, path: '/search?query=beach' },
        { person, path: `/api/timeline/${new Date().toISOString().slice(0, 7)}?limit=2` },
      ]),
    ];
    const expected = new Map<string, string>();
    for (const ask of asks) {
      const res = await fetch(new URL(ask.path, server.url), { headers: { accept: 'application/json', authorization: `Bearer ${ask.person.token}` } });
      expected.set(`${ask.person.token} ${ask.path}`, `${res.status} ${await res.text()}`);
    }
    expect(new Set(expected.values()).size).toBeGreaterThan(6);
    const crowd = Array.from({ length: 120 }, (_, i) => asks[(i * 7) % asks.length] as (typeof asks)[number]);
    const answers = await Promise.all(
      crowd.map(async (ask) => {
        const res = await fetch(new URL(ask.path, server.url), { headers: { accept: 'application/json', authorization: `Bearer ${ask.person.token}` } });
        return { key: `${ask.person.token} ${ask.path}`, got: `${res.status} ${await res.text()}` };
      }),
    );
    for (const { key, got } of answers) expect(got).toBe(expected.get(key));
  });

  it("writes a timeline month's page that the contract checks unchanged, with the same image text as the gallery", async () => {
    const { months } = JSON.parse(await text('/api/timeline', bob.token)) as { months: { month: string }[] };
    expect(months.length).toBeGreaterThan(0);
    const gallery = JSON.parse(await text('/api/gridimages?page=1&limit=50', bob.token)) as { images: { _id: string }[] };
    for (const { month } of months) {
      const page = await text(`/api/timeline/${month}?limit=2`, bob.token);
      expect(JSON.stringify(calls.getTimelineMonth.response.parse(JSON.parse(page)))).toBe(page);
      for (const image of (JSON.parse(page) as { images: { _id: string }[] }).images) {
        expect(image).toEqual(gallery.images.find((shown) => shown._id === image._id));
      }
    }
  });
});
