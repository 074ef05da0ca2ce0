import type { Image } from '@photo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { type Person, tagFixtures } from './support/tag-fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

interface GridPage {
  images: Image[];
}
interface TaggedEntry {
  image: Image;
  tags: string[];
  tagName?: string;
}

describe.each(testDatabases)('tags on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  const fx = tagFixtures(() => server, () => api);
  let admin: Person;
  let alice: Person;
  let bob: Person;

  const tagsOf = async (person: Person, id: string) => (await api.get<Image>(`/api/images/${id}`, person.token)).body.tags;
  const vocabulary = async (person: Person) => (await api.get<{ tags: string[] }>('/exisiting-tag', person.token)).body.tags;

  beforeAll(async () => {
    server = await startTestServer(database, { env: { HIDDEN_TAGS: ' Secret , PRIVATE  ' } });
    api = apiClient(server.url);
    admin = await fx.signUp('admin');
    alice = await fx.signUp('alice');
    // Confirmed: he receives a share below, and shares reach proven addresses only.
    bob = await fx.signUpConfirmed('bob');
  }, 60_000);
  afterAll(async () => server?.close());

  it('stores tags trimmed and lower-cased, once per image, in one shared vocabulary (listed to those who see the images)', async () => {
    const [a, b] = await fx.images(alice, 2);
    const res = await api.post('/add-tags', { tags: ['  Beach ', 'SUMMER  2024', 'beach'], imageIds: [a, b, a] }, alice.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: '2 tags added to 2 images.' });
    // Again, differently spelled: nothing doubles.
    expect((await api.post('/add-tags', { tags: ['beach'], imageIds: [a] }, alice.token)).status).toBe(200);
    expect(await tagsOf(alice, a as string)).toEqual(['beach', 'summer 2024']);
    const image = (await api.get<Image>(`/api/images/${a}`, alice.token)).body;
    expect(image.allTags).toEqual(['beach', 'summer 2024']);
    expect(image.customTags).toEqual([]);
    expect(await vocabulary(alice)).toEqual(expect.arrayContaining(['beach', 'summer 2024']));
    expect((await vocabulary(alice)).filter((t) => t === 'beach')).toHaveLength(1);
    expect(await vocabulary(admin)).toEqual(expect.arrayContaining(['beach', 'summer 2024']));
    // Bob sees none of Alice's images, so none of their tags either.
    expect(await vocabulary(bob)).not.toContain('summer 2024');
  });

  it('answers each selected image\'s tags and the tags common to all of them', async () => {
    const [a, b, c] = await fx.images(alice, 3);
    await api.post('/add-tags', { tags: ['dog', 'park'], imageIds: [a, b] }, alice.token);
    await api.post('/add-tags', { tags: ['cat'], imageIds: [b] }, alice.token);
    const res = await api.post<{ uniqueTags: { imageId: string; filteredTags: string[] }[]; commantags: string[] }>(
      '/tags',
      { imageIds: [a, b, c] },
      alice.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.uniqueTags).toEqual([
      { imageId: a, filteredTags: ['dog', 'park'] },
      { imageId: b, filteredTags: ['cat', 'dog', 'park'] },
      { imageId: c, filteredTags: [] },
    ]);
    expect(res.body.commantags).toEqual([]);
    expect((await api.post<{ commantags: string[] }>('/tags', { imageIds: [a, b] }, alice.token)).body.commantags).toEqual(['dog', 'park']);
    expect((await api.post('/tags', { imageIds: [] }, alice.token)).body).toEqual({ uniqueTags: [], commantags: [] });
  });

  it('adds one tag from the image detail and answers the image\'s tags', async () => {
    const [a] = await fx.images(alice, 1);
    const res = await api.post<{ tags: string[] }>(`/images/${a}/addTag`, { tag: ' Sunset ' }, alice.token);
    expect(res.status).toBe(200);
    expect(res.body.tags).toEqual(['sunset']);
    expect((await api.post(`/images/${a}/addTag`, { tag: '   ' }, alice.token)).status).toBe(400);
  });

  it('keeps custom tags (search results) apart in customTags, and in tags and allTags too', async () => {
    const [a] = await fx.images(alice, 1);
    expect((await api.post('/api/addUserTags', { tags: ['Holiday'], imageIds: [a] }, alice.token)).status).toBe(200);
    await api.post('/add-tags', { tags: ['road'], imageIds: [a] }, alice.token);
    const image = (await api.get<Image>(`/api/images/${a}`, alice.token)).body;
    expect(image.customTags).toEqual(['holiday']);
    expect(image.tags).toEqual(['holiday', 'road']);
    expect(image.allTags).toEqual(['holiday', 'road']);
  });

  it('refuses images the person cannot see with a 404 naming the id, and changes nothing', async () => {
    const [mine] = await fx.images(bob, 1);
    const [theirs] = await fx.images(alice, 1);
    const before = await vocabulary(bob);
    const res = await api.post('/add-tags', { tags: ['intruder'], imageIds: [mine, theirs] }, bob.token);
    expect(res.status).toBe(404);
    expect(res.body['message']).toContain(`Image ${theirs}`);
    expect(await tagsOf(bob, mine as string)).toEqual([]);
    expect(await vocabulary(bob)).toEqual(before);
    for (const [path, body] of [
      ['/api/addUserTags', { tags: ['intruder'], imageIds: [theirs] }],
      [`/images/${theirs}/addTag`, { tag: 'intruder' }],
      ['/tags', { imageIds: [theirs] }],
      ['/remove-tag', { tagName: ['x'], imageId: theirs }],
      ['/add-tags', { tags: ['intruder'], imageIds: ['999999'] }],
      ['/add-tags', { tags: ['intruder'], imageIds: ['not-an-id'] }],
    ] as const) {
      const answer = await api.post(path, body, bob.token);
      expect(answer.status, path).toBe(404);
    }
    expect(await tagsOf(alice, theirs as string)).toEqual([]);
    expect(await vocabulary(bob)).not.toContain('intruder');
  });

  it('answers 401 without a token and 400 for bad input', async () => {
    const [a] = await fx.images(alice, 1);
    expect((await api.get('/exisiting-tag')).status).toBe(401);
    expect((await api.post('/tags', { imageIds: [a] })).status).toBe(401);
    expect((await api.post('/add-tags', { tags: ['x'], imageIds: [a] })).status).toBe(401);
    expect((await api.post('/api/addUserTags', { tags: ['x'], imageIds: [a] })).status).toBe(401);
    expect((await api.post('/remove-tag', { tagName: ['x'], imageId: a })).status).toBe(401);
    expect((await api.post(`/images/${a}/addTag`, { tag: 'x' })).status).toBe(401);
    expect((await api.get('/user-tags')).status).toBe(401);
    expect((await api.get('/mytagged-imgs')).status).toBe(401);
    expect((await api.get('/api/search/suggestions?query=abc')).status).toBe(401);
    expect((await api.post('/api/headerSearchTags', { query: ['x'] })).status).toBe(401);
    expect((await api.post('/add-tags', { tags: [], imageIds: [a] }, alice.token)).status).toBe(400);
    // Every list input has a maximum: 200,000 names to remove is a clear 400, not a 500 (too many SQL variables).
    const flood = await api.post<{ message: string }>('/remove-tag', { tagName: Array.from({ length: 200_000 }, (_, i) => `t${i % 10}`), imageId: a }, alice.token);
    expect(flood.status).toBe(400);
    expect(flood.body.message).toMatch(/tagName/);
    expect((await api.post('/add-tags', { tags: ['x'], imageIds: [] }, alice.token)).status).toBe(400);
    expect((await api.post('/add-tags', { tags: ['x'.repeat(65)], imageIds: [a] }, alice.token)).status).toBe(400);
    expect(await tagsOf(alice, a as string)).toEqual([]);
  });

  it('lets whoever added a tag, the uploader or an admin remove it; others get a 404 and nothing changes', async () => {
    const [a] = await fx.images(alice, 1);
    // Bob sees Alice's image only as an admin would: make him tag through the admin instead.
    await api.post('/add-tags', { tags: ['one', 'two', 'three', 'four'], imageIds: [a] }, admin.token);
    await api.post('/add-tags', { tags: ['mine'], imageIds: [a] }, alice.token);

    // Bob cannot see the image at all.
    expect((await api.post('/remove-tag', { tagName: ['one'], imageId: a }, bob.token)).status).toBe(404);

    // The uploader removes a tag someone else added; several at once, case-folded.
    expect((await api.post('/remove-tag', { tagName: ['ONE', ' two '], imageId: a }, alice.token)).status).toBe(200);
    // The admin removes one the uploader added.
    expect((await api.post('/remove-tag', { tagName: ['mine'], imageId: a }, admin.token)).status).toBe(200);
    // A tag that is not on the image: 404 naming it, and nothing else removed.
    const missing = await api.post('/remove-tag', { tagName: ['three', 'nope'], imageId: a }, alice.token);
    expect(missing.status).toBe(404);
    expect(missing.body['message']).toContain('"nope"');
    expect(await tagsOf(alice, a as string)).toEqual(['four', 'three']);
  });

  it('lets a share recipient tag a shared image and remove only their own tags there', async () => {
    const carol = await fx.signUp('carol');
    const [c] = await fx.images(carol, 1);
    await api.post('/add-tags', { tags: ['carols'], imageIds: [c] }, carol.token);
    expect((await api.post(`/images/${c}/addTag`, { tag: 'bobs' }, bob.token)).status).toBe(404);
    await fx.share(carol, [c as string], bob);
    expect((await api.post<{ tags: string[] }>(`/images/${c}/addTag`, { tag: 'bobs' }, bob.token)).body.tags).toEqual(['bobs', 'carols']);
    const refused = await api.post('/remove-tag', { tagName: ['carols'], imageId: c }, bob.token);
    expect(refused.status).toBe(404);
    expect(refused.body['message']).toContain('"carols"');
    // All or nothing: his own tag, named beside hers, stays too.
    expect((await api.post('/remove-tag', { tagName: ['bobs', 'carols'], imageId: c }, bob.token)).status).toBe(404);
    expect(await tagsOf(carol, c as string)).toEqual(['bobs', 'carols']);
    expect((await api.post('/remove-tag', { tagName: ['bobs'], imageId: c }, bob.token)).status).toBe(200);
    expect(await tagsOf(carol, c as string)).toEqual(['carols']);
  });

  it('lists the tags a person used and the images they tagged, with their own tags', async () => {
    const dave = await fx.signUp('dave');
    const [d1, d2, d3] = await fx.images(dave, 3);
    await api.post('/add-tags', { tags: ['zebra', 'apple'], imageIds: [d1] }, dave.token);
    await api.post('/api/addUserTags', { tags: ['Mango'], imageIds: [d2] }, dave.token);
    // The admin tags d3: it is not among Dave's tagged images, and the admin's tag is not Dave's.
    await api.post('/add-tags', { tags: ['admins pick'], imageIds: [d3, d1] }, admin.token);

    expect((await api.get<{ data: string[] }>('/user-tags', dave.token)).body.data).toEqual(['apple', 'mango', 'zebra']);
    const tagged = await api.get<{ data: TaggedEntry[] }>('/mytagged-imgs', dave.token);
    expect(tagged.status).toBe(200);
    // In the gallery's order: newest taken first, undated photos by upload time (files of one upload are processed in parallel).
    const galleryOrder = (await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=50', dave.token)).body.images
      .map((i) => i._id)
      .filter((id) => id === d1 || id === d2);
    expect(galleryOrder).toHaveLength(2);
    expect(tagged.body.data.map((e) => e.image._id)).toEqual(galleryOrder);
    const entry = (id: string | undefined) => tagged.body.data.find((e) => e.image._id === id);
    expect(entry(d1)?.tags).toEqual(['apple', 'zebra']);
    expect(entry(d1)?.image.tags).toEqual(['admins pick', 'apple', 'zebra']);
    expect(entry(d2)).toMatchObject({ tags: ['mango'], tagName: 'mango' });
    const profile = await api.get<{ bulkTags: string[] }>('/api/profile', dave.token);
    expect(profile.body.bulkTags).toEqual(['apple', 'mango', 'zebra']);
  });

  it('never lists a hidden tag: vocabulary, image tags, selection, user tags, suggestions', async () => {
    const erin = await fx.signUp('erin');
    const [e] = await fx.images(erin, 1);
    expect((await api.post('/add-tags', { tags: ['SECRET', 'private', 'public'], imageIds: [e] }, erin.token)).status).toBe(200);
    expect(await tagsOf(erin, e as string)).toEqual(['public']);
    expect(await vocabulary(erin)).not.toContain('secret');
    expect(await vocabulary(erin)).not.toContain('private');
    expect((await api.post<{ uniqueTags: { filteredTags: string[] }[] }>('/tags', { imageIds: [e] }, erin.token)).body.uniqueTags[0]?.filteredTags).toEqual(['public']);
    expect((await api.get<{ data: string[] }>('/user-tags', erin.token)).body.data).toEqual(['public']);
    expect((await api.get<string[]>('/api/search/suggestions?query=sec', erin.token)).body).toEqual([]);
    expect((await api.get<string[]>('/admin-tags', admin.token)).body).not.toContain('secret');
    expect((await api.post<{ images?: Image[] }>('/api/headerSearchTags', { query: ['secret'] }, erin.token)).body.images ?? []).toEqual([]);
    const page = await api.get<GridPage>('/api/gridimages?page=1&limit=50', erin.token);
    expect(page.body.images.find((i) => i._id === e)?.tags).toEqual(['public']);
  });

  it('shows a new tag and a new like in the next (cached) gallery page', async () => {
    const frank = await fx.signUp('frank');
    const [f] = await fx.images(frank, 1);
    const first = await api.get<GridPage>('/api/gridimages?page=1&limit=50', frank.token);
    expect(first.body.images.find((i) => i._id === f)).toMatchObject({ tags: [], likes: 0, liked: false });
    // Served again from the page cache.
    expect((await api.get<GridPage>('/api/gridimages?page=1&limit=50', frank.token)).body).toEqual(first.body);

    await api.post('/add-tags', { tags: ['fresh'], imageIds: [f] }, frank.token);
    await api.post(`/images/${f}/like`, { liked: true }, frank.token);
    const next = await api.get<GridPage>('/api/gridimages?page=1&limit=50', frank.token);
    expect(next.body.images.find((i) => i._id === f)).toMatchObject({ tags: ['fresh'], allTags: ['fresh'], likes: 1, liked: true });

    // The admin's cached page follows too: their like counts, Frank's does not read as theirs.
    const adminPage = await api.get<GridPage>('/api/gridimages?page=1&limit=50', admin.token);
    expect(adminPage.body.images.find((i) => i._id === f)).toMatchObject({ likes: 1, liked: false });
    await api.post('/remove-tag', { tagName: ['fresh'], imageId: f }, frank.token);
    await api.post(`/images/${f}/like`, { liked: true }, admin.token);
    expect((await api.get<GridPage>('/api/gridimages?page=1&limit=50', admin.token)).body.images.find((i) => i._id === f)).toMatchObject({
      tags: [],
      likes: 2,
      liked: true,
    });
  });

  it('takes parallel taggings with the same new tags without an error or a double', async () => {
    const hana = await fx.signUp('hana');
    const [h1, h2, h3] = (await fx.images(hana, 3)) as [string, string, string];
    const answers = await Promise.all([
      api.post('/add-tags', { tags: ['rush b', 'rush a'], imageIds: [h1, h2] }, hana.token),
      api.post('/add-tags', { tags: ['rush a', 'rush b'], imageIds: [h2, h3] }, hana.token),
      api.post('/add-tags', { tags: ['rush a'], imageIds: [h1, h3] }, admin.token),
      api.post('/api/addUserTags', { tags: ['rush b', 'rush c'], imageIds: [h3] }, hana.token),
      api.post(`/images/${h1}/addTag`, { tag: 'rush c' }, hana.token),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await tagsOf(hana, h1)).toEqual(['rush a', 'rush b', 'rush c']);
    expect(await tagsOf(hana, h2)).toEqual(['rush a', 'rush b']);
    expect(await tagsOf(hana, h3)).toEqual(['rush a', 'rush b', 'rush c']);
    expect((await vocabulary(hana)).filter((t) => t.startsWith('rush'))).toEqual(['rush a', 'rush b', 'rush c']);
    // Usage counts stayed exact: a (3 by Hana + 2 by the admin) > b (3) > c (2).
    expect((await api.get<string[]>('/api/search/suggestions?query=rush', hana.token)).body).toEqual(['rush a', 'rush b', 'rush c']);
  });

  it('suggests the tags as they are now: after tags under the prefix change, and after another connection changes them', async () => {
    const suggest = async (query: string) => (await api.get<string[]>(`/api/search/suggestions?query=${query}`, admin.token)).body;
    const [q1, q2] = (await fx.images(admin, 2)) as [string, string];
    await api.post('/add-tags', { tags: ['quagga two'], imageIds: [q1, q2] }, admin.token);
    await api.post('/add-tags', { tags: ['quagga one'], imageIds: [q1] }, admin.token);
    // Kept per prefix on SQLite (tags/tag-prefixes.ts): a tag elsewhere in the vocabulary leaves it as it is.
    expect(await suggest('quag')).toEqual(['quagga two', 'quagga one']);
    await api.post('/add-tags', { tags: ['yak herd'], imageIds: [q1] }, admin.token);
    expect(await suggest('quag')).toEqual(['quagga two', 'quagga one']);
    // A tag under the prefix used more: the order follows at once.
    const [q3, q4] = (await fx.images(admin, 2)) as [string, string];
    await api.post('/add-tags', { tags: ['quagga one'], imageIds: [q3, q4] }, admin.token);
    expect(await suggest('quag')).toEqual(['quagga one', 'quagga two']);
    // Renamed by another connection (a script; the version moved, as a relabel moves it).
    await server.sql("update tags set name = 'quagga three' where name = 'quagga two'");
    await server.sql('update library_state set version = version + 1, relabel_version = version + 1');
    expect(await suggest('quag')).toEqual(['quagga one', 'quagga three']);
  });

  it('forgets the tags of a deleted image: its tags leave the vocabulary when no other image has them', async () => {
    const gina = await fx.signUp('gina');
    const [g1, g2] = await fx.images(gina, 2);
    await api.post('/add-tags', { tags: ['only here', 'shared tag'], imageIds: [g1] }, gina.token);
    await api.post('/add-tags', { tags: ['shared tag'], imageIds: [g2] }, gina.token);
    expect((await api.post('/api/deleteImages', { imageIds: [g1] }, gina.token)).status).toBe(200);
    expect(await vocabulary(gina)).not.toContain('only here');
    expect(await vocabulary(gina)).toContain('shared tag');
    expect((await api.get<string[]>('/api/search/suggestions?query=only', gina.token)).body).toEqual([]);
    // Tagging it again brings it back: the count starts from zero, not below.
    await api.post('/add-tags', { tags: ['only here'], imageIds: [g2] }, gina.token);
    expect((await api.get<string[]>('/api/search/suggestions?query=only', gina.token)).body).toEqual(['only here']);
  });
});
