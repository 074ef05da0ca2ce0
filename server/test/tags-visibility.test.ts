import type { Image } from '@photo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { type Person, tagFixtures } from './support/tag-fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/**
 * People learn tag words only from photos they may see: every list of tags, every suggestion and
 * every tag search is drawn from the caller's visible images and ranked by counts over them.
 *
 * Olga's library: 50 private photos tagged 'paternity test' and 'parade', and two more (s0, s1)
 * tagged 'party' (s0 also 'parade' and the hidden 'hush'), which she shares with Rita. So 'parade'
 * is used 51 times in the library but once where Rita can look, and must rank below 'party' (twice).
 */
describe.each(testDatabases)('tags people may see on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  const fx = tagFixtures(() => server, () => api);
  let admin: Person;
  let olga: Person;
  let rita: Person;
  let mallory: Person;
  let privateIds: string[];
  let s0: string;
  let s1: string;
  let ritaOwn: string;

  const vocabulary = async (person: Person) => (await api.get<{ tags: string[] }>('/exisiting-tag', person.token)).body.tags;
  const suggest = async (person: Person, query: string) =>
    (await api.get<string[]>(`/api/search/suggestions?query=${encodeURIComponent(query)}`, person.token)).body;
  const userTags = async (person: Person) => (await api.get<{ data: string[] }>('/user-tags', person.token)).body.data;
  const filter = async (person: Person, query: string[]) =>
    (await api.post<{ images?: Image[]; message?: string }>('/api/headerSearchTags', { query }, person.token)).body;
  const search = async (person: Person, query: string) =>
    (await api.get<{ images: Image[] }>(`/search?query=${encodeURIComponent(query)}`, person.token)).body.images.map((i) => i._id);
  const ids = (images: Image[] | undefined) => (images ?? []).map((i) => i._id).sort();
  const tag = async (person: Person, tags: string[], imageIds: string[]) =>
    expect((await api.post('/add-tags', { tags, imageIds }, person.token)).status).toBe(200);
  const privateWords = ['paternity test', 'parade', 'party', 'hush'];

  beforeAll(async () => {
    server = await startTestServer(database, { env: { HIDDEN_TAGS: 'hush' } });
    api = apiClient(server.url);
    admin = await fx.signUpConfirmed('admin');
    olga = await fx.signUpConfirmed('olga');
    rita = await fx.signUpConfirmed('rita');
    mallory = await fx.signUpConfirmed('mallory');
    const olgas = await fx.images(olga, 52);
    privateIds = olgas.slice(0, 50);
    [s0, s1] = olgas.slice(50) as [string, string];
    [ritaOwn] = (await fx.images(rita, 1)) as [string];
    await tag(olga, ['paternity test', 'parade'], privateIds);
    await tag(olga, ['parade', 'party', 'hush'], [s0]);
    await tag(olga, ['party'], [s1]);
    await tag(rita, ['rita own'], [ritaOwn]);
    await tag(mallory, ['mallory own'], await fx.images(mallory, 1));
    await fx.share(olga, [s0, s1], rita);
  }, 120_000);
  afterAll(async () => server?.close());

  it('never names a tag of photos the caller cannot see: vocabulary, suggestions, their tags, tag filter, search', async () => {
    const words = await vocabulary(mallory);
    for (const word of privateWords) expect(words, word).not.toContain(word);
    expect(words).toContain('mallory own');
    expect(await suggest(mallory, 'pa')).toEqual([]);
    expect(await suggest(mallory, 'paternity')).toEqual([]);
    expect(await userTags(mallory)).toEqual(['mallory own']);
    for (const word of privateWords) expect(await filter(mallory, [word])).toEqual({ images: [], message: 'No images found' });
    expect(await search(mallory, 'pa')).toEqual([]);
    expect(await search(mallory, 'paternity')).toEqual([]);
    // Their tags cannot be asked for either: the photos are not there for this person.
    expect((await api.post('/tags', { imageIds: [privateIds[0]] }, mallory.token)).status).toBe(404);
    expect((await api.post('/tags', { imageIds: [s0] }, mallory.token)).status).toBe(404);
  });

  it('shows the tags of photos shared with a confirmed recipient, ranked by how often they see them', async () => {
    const words = await vocabulary(rita);
    expect(words).toEqual(expect.arrayContaining(['parade', 'party', 'rita own']));
    expect(words).not.toContain('paternity test');
    expect(words).not.toContain('hush');
    // 'parade' is on 51 photos, but on one she sees; 'party' on the two she sees.
    expect(await suggest(rita, 'pa')).toEqual(['party', 'parade']);
    expect(await suggest(rita, 'pat')).toEqual([]);
    expect(ids((await filter(rita, ['party'])).images)).toEqual([s0, s1].sort());
    expect(ids((await filter(rita, ['parade', 'party'])).images)).toEqual([s0]);
    expect(await filter(rita, ['paternity test'])).toEqual({ images: [], message: 'No images found' });
    expect((await search(rita, 'pa')).sort()).toEqual([s0, s1].sort());
    expect(await search(rita, 'paternity')).toEqual([]);
    const selection = await api.post<{ uniqueTags: { imageId: string; filteredTags: string[] }[] }>('/tags', { imageIds: [s0] }, rita.token);
    expect(selection.body.uniqueTags).toEqual([{ imageId: s0, filteredTags: ['parade', 'party'] }]);
  });

  it('takes them away again when the share is switched off, and back when it is switched on', async () => {
    await tag(rita, ['rita note'], [s1 as string]);
    expect(await userTags(rita)).toEqual(['rita note', 'rita own']);
    expect(await suggest(rita, 'pa')).toEqual(['party', 'parade']);

    await fx.switchShare(olga, rita, false);
    const words = await vocabulary(rita);
    for (const word of [...privateWords, 'rita note']) expect(words, word).not.toContain(word);
    expect(words).toContain('rita own');
    expect(await suggest(rita, 'pa')).toEqual([]);
    expect(await suggest(rita, 'rita')).toEqual(['rita own']);
    // Even her own word: it is on a photo she no longer sees.
    expect(await userTags(rita)).toEqual(['rita own']);
    expect((await api.get<{ bulkTags: string[] }>('/api/profile', rita.token)).body.bulkTags).toEqual(['rita own']);
    expect(await filter(rita, ['party'])).toEqual({ images: [], message: 'No images found' });
    expect(await search(rita, 'pa')).toEqual([]);

    await fx.switchShare(olga, rita, true);
    expect(await suggest(rita, 'pa')).toEqual(['party', 'parade']);
    expect(await userTags(rita)).toEqual(['rita note', 'rita own']);
  });

  it('counts a new tag on a shared photo for its recipient at once, and nothing tagged privately', async () => {
    await tag(olga, ['parakeet'], [s0 as string]);
    await tag(olga, ['parasol'], privateIds.slice(0, 10));
    expect(await suggest(rita, 'par')).toEqual(['party', 'parade', 'parakeet']);
    expect(await suggest(mallory, 'par')).toEqual([]);
  });

  it('keeps counts across changes outside the view, and still sees each change inside it on the next call', async () => {
    // Rita's counts are carried over versions whose changes were all outside her view
    // (read-caches/scope-changes.ts); each change inside it must still show at once.
    const before = await suggest(rita, 'par');
    await tag(olga, ['kestrel'], privateIds.slice(10, 20));
    expect((await api.post(`/images/${privateIds[0]}/like`, { liked: true }, olga.token)).status).toBe(200);
    expect(await suggest(rita, 'par')).toEqual(before);
    expect(await suggest(rita, 'kes')).toEqual([]);
    await tag(olga, ['kite'], [s1]);
    expect(await suggest(rita, 'ki')).toEqual(['kite']);
    expect((await api.post('/remove-tag', { tagName: ['kite'], imageId: s1 }, olga.token)).status).toBe(200);
    expect(await suggest(rita, 'ki')).toEqual([]);
    const [fresh] = (await fx.images(rita, 1)) as [string];
    await tag(rita, ['kiwi'], [fresh]);
    expect(await suggest(rita, 'ki')).toEqual(['kiwi']);
    expect(await suggest(rita, 'kes')).toEqual([]);
  });

  it('keeps exact counts through changes inside the view: one per person who added a tag, until it is removed', async () => {
    // After the first read, Rita's counts are brought up to date from the changed photos alone
    // (tags/view-tally.ts); they must stay what counting her whole view would give.
    expect(await suggest(rita, 'ka')).toEqual([]);
    await tag(olga, ['kayak'], [s0]);
    await tag(rita, ['kayak'], [s0]);
    await tag(olga, ['kale'], [s0, s1]);
    expect((await api.post(`/images/${s1}/like`, { liked: true }, rita.token)).status).toBe(200);
    await tag(rita, ['kale'], [ritaOwn]);
    expect(await suggest(rita, 'ka')).toEqual(['kale', 'kayak']);
    for (const image of [s0, s1]) expect((await api.post('/remove-tag', { tagName: ['kale'], imageId: image }, olga.token)).status).toBe(200);
    expect(await suggest(rita, 'ka')).toEqual(['kayak', 'kale']);
    await tag(rita, ['kale'], [s1]);
    expect(await suggest(rita, 'ka')).toEqual(['kale', 'kayak']);
    // A removal takes the tag off the photo, whoever had added it: both of its rows go.
    expect((await api.post('/remove-tag', { tagName: ['kayak'], imageId: s0 }, rita.token)).status).toBe(200);
    expect(await suggest(rita, 'ka')).toEqual(['kale']);
    expect(await vocabulary(rita)).not.toContain('kayak');
  });

  it('finds a shared photo by a tag prefix with GET /search, however many private tags share the prefix', async () => {
    // 51 private tags, each more used than the shared one: ranked over the whole library, they
    // would fill the 50 tags a search prefix may stand for and push 'project' out.
    const many = Array.from({ length: 51 }, (_, k) => `proj ${String(k).padStart(2, '0')}`);
    await tag(olga, many.slice(0, 26), privateIds.slice(0, 2));
    await tag(olga, many.slice(26), privateIds.slice(0, 2));
    await tag(olga, ['project'], [s1 as string]);
    expect(await search(rita, 'proj')).toEqual([s1]);
    expect(await suggest(rita, 'proj')).toEqual(['project']);
    expect(await search(mallory, 'proj')).toEqual([]);
  });

  it('lets a share reach only a proven address: an unconfirmed account learns nothing from it', async () => {
    const uma = await fx.signUp('uma');
    await fx.share(olga, [s0 as string], uma);
    expect(await vocabulary(uma)).not.toContain('party');
    expect(await suggest(uma, 'pa')).toEqual([]);
  });

  it('answers someone who sees everything through own uploads plus a share like an admin, until a photo arrives they cannot see', async () => {
    const victor = await fx.signUpConfirmed('victor');
    const [own] = (await fx.images(victor, 1)) as [string];
    await tag(victor, ['parrot'], [own]);
    const everything = (await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=200', admin.token)).body.images.map((i) => i._id);
    expect(everything.length).toBeLessThan(200);
    await fx.share(admin, everything.filter((id) => id !== own), victor);
    const adminSays = await suggest(admin, 'pa');
    expect(adminSays).toContain('paternity test');
    expect(await suggest(victor, 'pa')).toEqual(adminSays);
    // A new private photo of Olga's: Victor no longer sees the whole library, nor its new word.
    const [fresh] = (await fx.images(olga, 1)) as [string];
    await tag(olga, ['pastry'], [fresh]);
    expect(await suggest(admin, 'past')).toEqual(['pastry']);
    expect(await suggest(victor, 'past')).toEqual([]);
    expect(await suggest(victor, 'pa')).toEqual(adminSays);
  });

  it('shows an admin and an all-access recipient the whole library, ranked by its counts', async () => {
    const alice = await fx.signUpConfirmed('alice');
    expect(await suggest(alice, 'pa')).toEqual([]);
    expect((await api.post('/api/share-all', { accessTo: [alice.email] }, admin.token)).status).toBe(200);
    for (const person of [admin, alice]) {
      expect(await suggest(person, 'pa')).toEqual(['parade', 'paternity test', 'parasol', 'party', 'parakeet']);
      expect(await vocabulary(person)).toEqual(expect.arrayContaining(['paternity test', 'parade', 'party', 'rita own', 'mallory own']));
      expect(await vocabulary(person)).not.toContain('hush');
      expect(ids((await filter(person, ['paternity test'])).images)).toEqual([...privateIds].sort());
    }
    // Rita's view did not change with it.
    expect(await suggest(rita, 'pa')).toEqual(['party', 'parade', 'parakeet']);
    // The admin tag screen stays the whole library's.
    expect(await api.get<string[]>('/admin-tags', admin.token)).toMatchObject({ status: 200, body: expect.arrayContaining(['paternity test', 'parade']) });
  });
});
