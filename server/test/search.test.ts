import type { Image } from '@photo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { type Person, tagFixtures } from './support/tag-fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

describe.each(testDatabases)('tag suggestions, tag filter and search on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  const fx = tagFixtures(() => server, () => api);
  let admin: Person;
  let alice: Person;
  let bob: Person;
  let pics: string[];
  let bobs: string[];

  const suggest = async (person: Person, query: string) =>
    (await api.get<string[]>(`/api/search/suggestions?query=${encodeURIComponent(query)}`, person.token)).body;
  const filter = (person: Person, query: string | string[]) =>
    api.post<{ images?: Image[]; message?: string }>('/api/headerSearchTags', { query }, person.token);
  const ids = (images: Image[] | undefined) => (images ?? []).map((i) => i._id);
  /** Gallery order (decision 0009): these pictures carry no date, so by upload time, ties by id. */
  let rank = new Map<string, number>();
  const newestFirst = (list: string[]) => [...list].sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));

  beforeAll(async () => {
    server = await startTestServer(database, { env: { HIDDEN_TAGS: 'Beachy   Secret' } });
    api = apiClient(server.url);
    admin = await fx.signUp('admin');
    alice = await fx.signUp('alice');
    bob = await fx.signUp('bob');
    pics = await fx.images(alice, 6);
    bobs = await fx.images(bob, 2);
    const everything = (await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=200', admin.token)).body.images;
    rank = new Map(everything.map((image, index) => [image._id, index]));
    const tag = (tags: string[], imageIds: string[], person = alice) => api.post('/add-tags', { tags, imageIds }, person.token);
    // Usage: beach 5 (4 Alice's + 1 Bob's), beachwear 2, bear 1, beacon 1, beat 1, beagle 3, 'beachy secret' (hidden) 6.
    await tag(['beach'], pics.slice(0, 4));
    await tag(['beach', 'summer'], [bobs[0] as string], bob);
    await tag(['beachwear'], pics.slice(0, 2));
    await tag(['bear'], [pics[5] as string]);
    await tag(['beacon'], [pics[5] as string]);
    await tag(['beat'], [pics[5] as string]);
    await tag(['beagle'], pics.slice(3, 6));
    await tag(['beachy secret'], pics);
    await tag(['summer'], [pics[1] as string, pics[2] as string]);
  }, 60_000);
  afterAll(async () => server?.close());

  it('suggests at most five tags starting with the query, most used first, then alphabetically', async () => {
    expect(await suggest(alice, 'bea')).toEqual(['beach', 'beagle', 'beachwear', 'beacon', 'bear']);
    expect(await suggest(alice, '  BEAC ')).toEqual(['beach', 'beachwear', 'beacon']);
    expect(await suggest(alice, 'beach')).toEqual(['beach', 'beachwear']);
    // Prefix, not substring; nothing for an empty query; only tags of images the person may see
    // (Alice's beagles are not Bob's to see: tags-visibility.test.ts has the rest).
    expect(await suggest(alice, 'each')).toEqual([]);
    expect(await suggest(alice, '   ')).toEqual([]);
    expect(await suggest(alice, 'beag')).toEqual(['beagle']);
    expect(await suggest(bob, 'beag')).toEqual([]);
    expect(await suggest(bob, 'bea')).toEqual(['beach']);
    expect(await suggest(alice, 'b%')).toEqual([]);
  });

  it('filters by tags: the images the person may see that carry all of them, newest first', async () => {
    const [p0, p1, p2, p3] = pics as [string, string, string, string];
    const beach = await filter(alice, ['beach']);
    expect(beach.status).toBe(200);
    // Bob's beach image is not Alice's to see.
    expect(ids(beach.body.images)).toEqual(newestFirst([p0, p1, p2, p3]));
    expect(beach.body.images?.[0]).toMatchObject({ tags: expect.arrayContaining(['beach']) });
    expect(ids((await filter(alice, ['Beach', ' SUMMER '])).body.images)).toEqual(newestFirst([p1, p2]));
    expect(ids((await filter(alice, ['beach', 'summer', 'beachwear'])).body.images)).toEqual([p1]);
    // The admin sees everyone's.
    expect(ids((await filter(admin, ['beach', 'summer'])).body.images)).toEqual(newestFirst([p1, p2, bobs[0] as string]));
    // A text query (the search page) may name several tags with commas.
    expect(ids((await filter(alice, 'beach, summer')).body.images)).toEqual(newestFirst([p1, p2]));
    expect(ids((await filter(alice, 'BEACH')).body.images)).toEqual(newestFirst([p0, p1, p2, p3]));
  });

  it('suggests a tag the moment it is added, and stops when it is gone (cached per prefix and library version)', async () => {
    expect(await suggest(alice, 'beag')).toEqual(['beagle']);
    await api.post('/add-tags', { tags: ['beagles'], imageIds: [pics[0] as string] }, alice.token);
    expect(await suggest(alice, 'beag')).toEqual(['beagle', 'beagles']);
    await api.post('/remove-tag', { tagName: ['beagles'], imageId: pics[0] as string }, alice.token);
    expect(await suggest(alice, 'beag')).toEqual(['beagle']);
  });

  it('answers a repeated filter from its cache only while nothing changed: a new tag, a like or a removal shows at once', async () => {
    const p4 = pics[4] as string;
    const first = await filter(alice, ['beagle']);
    expect(ids(first.body.images)).toEqual(newestFirst(pics.slice(3, 6)));
    expect((await filter(alice, ['beagle'])).body).toEqual(first.body);
    await api.post(`/images/${p4}/like`, { liked: true }, alice.token);
    expect((await filter(alice, ['beagle'])).body.images?.find((i) => i._id === p4)).toMatchObject({ likes: 1, liked: true });
    await api.post('/add-tags', { tags: ['beagle'], imageIds: [pics[0] as string] }, alice.token);
    expect(ids((await filter(alice, ['beagle'])).body.images)).toEqual(newestFirst([pics[0] as string, ...pics.slice(3, 6)]));
    await api.post('/remove-tag', { tagName: ['beagle'], imageId: pics[0] as string }, alice.token);
    await api.post(`/images/${p4}/like`, { liked: false }, alice.token);
    expect((await filter(alice, ['beagle'])).body).toEqual(first.body);
  });

  it("answers 200 'No images found' when nothing matches, an unknown tag or a hidden one", async () => {
    for (const query of [['beach', 'bear'], ['no such tag'], 'beachy secret', [], '  ', ['summer', 'nope']]) {
      const res = await filter(alice, query);
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(res.body, JSON.stringify(query)).toEqual({ images: [], message: 'No images found' });
    }
    // Bob sees only his own beach image.
    expect(ids((await filter(bob, ['beach'])).body.images)).toEqual([bobs[0]]);
  });

  it('finds images by tag prefix and by name with GET /search', async () => {
    const res = await api.get<{ images: Image[] }>('/search?query=BEAG', alice.token);
    expect(res.status).toBe(200);
    expect(ids(res.body.images)).toEqual(newestFirst(pics.slice(3, 6)));
    // Bob's search never reaches Alice's images.
    expect(ids((await api.get<{ images: Image[] }>('/search?query=beach', bob.token)).body.images)).toEqual([bobs[0]]);
    // By name, as before.
    const named = await api.get<{ images: Image[] }>('/search?query=pic-', bob.token);
    expect(ids(named.body.images)).toEqual(newestFirst(bobs));
    expect((await api.get<{ images: Image[] }>('/search?query=beachy%20secret', alice.token)).body.images).toEqual([]);
    expect((await api.get('/search?query=beach')).status).toBe(401);
  });

  it('finds nothing for control characters (no name or tag holds one), on either database, instead of everything or a 500', async () => {
    for (const query of ['be%01', 'pic-%1F', '%7F']) {
      const res = await api.get<{ images: Image[] }>(`/search?query=${query}`, bob.token);
      expect(res.status, query).toBe(200);
      expect(res.body.images, query).toEqual([]);
      expect((await api.get(`/exisiting-tag?query=${query}`, alice.token)).status, query).toBe(200);
      const filtered = await filter(alice, [decodeURIComponent(query)]);
      expect(filtered.status, query).toBe(200);
      expect(filtered.body.images, query).toEqual([]);
    }
    // A NUL is refused before any search (http/text-input.ts): SQLite's like stopped reading at it
    // and matched every image; PostgreSQL refused it with a 500.
    for (const query of ['%00', 'pic-%00', '%00pic-']) {
      const res = await api.get<{ message: string }>(`/search?query=${query}`, bob.token);
      expect(res.status, query).toBe(400);
      expect(res.body.message).toBe('querystring.query: Text cannot contain a NUL character.');
    }
  });

  it('stays correct after a tag leaves every image: no longer suggested, no longer found', async () => {
    await api.post('/remove-tag', { tagName: ['beat'], imageId: pics[5] }, alice.token);
    expect(await suggest(alice, 'bea')).toEqual(['beach', 'beagle', 'beachwear', 'beacon', 'bear']);
    expect(await suggest(alice, 'beat')).toEqual([]);
    expect((await filter(alice, ['beat'])).body).toEqual({ images: [], message: 'No images found' });
  });
});
