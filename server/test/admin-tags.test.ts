import type { Image } from '@photo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { type Person, tagFixtures } from './support/tag-fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

describe.each(testDatabases)('admin tag manager on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  const fx = tagFixtures(() => server, () => api);
  let admin: Person;
  let alice: Person;

  const adminTags = async () => (await api.get<string[]>('/admin-tags', admin.token)).body;
  const tagsOf = async (id: string) => (await api.get<Image>(`/api/images/${id}`, admin.token)).body.tags;
  const withTags = async (tags: string[]) =>
    ((await api.post<{ images?: Image[] }>('/api/headerSearchTags', { query: tags }, admin.token)).body.images ?? []).map((i) => i._id);

  beforeAll(async () => {
    server = await startTestServer(database, { env: { HIDDEN_TAGS: 'staff only' } });
    api = apiClient(server.url);
    admin = await fx.signUp('admin');
    alice = await fx.signUp('alice');
  }, 60_000);
  afterAll(async () => server?.close());

  it('lists every tag in use, sorted, without hidden ones', async () => {
    const [a] = (await fx.images(alice, 1)) as [string];
    await api.post('/add-tags', { tags: ['Zoo', 'apple', '2024 trip', 'staff only'], imageIds: [a] }, alice.token);
    const res = await api.get<string[]>('/admin-tags', admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.arrayContaining(['2024 trip', 'apple', 'zoo']));
    expect(res.body).not.toContain('staff only');
    expect(res.body).toEqual([...res.body].sort());
  });

  it('renames a tag on every image; the same text again changes nothing', async () => {
    const [a, b] = (await fx.images(alice, 2)) as [string, string];
    await api.post('/add-tags', { tags: ['beach'], imageIds: [a, b] }, alice.token);
    const res = await api.put('/admin/update-tag', { oldTagValue: 'Beach', newTagValue: ' Beaches ' }, admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true });
    expect(await tagsOf(a)).toEqual(['beaches']);
    expect(await tagsOf(b)).toEqual(['beaches']);
    expect(await adminTags()).not.toContain('beach');
    // Shown at once in the (cached) gallery of the person who tagged.
    const page = await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=50', alice.token);
    expect(page.body.images.find((i) => i._id === a)?.tags).toEqual(['beaches']);
    const same = await api.put('/admin/update-tag', { oldTagValue: 'beaches', newTagValue: 'BEACHES' }, admin.token);
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ success: true });
    expect(await tagsOf(a)).toEqual(['beaches']);
  });

  it('merges when the new text is an existing tag (ignoring case), including two tags on the same image', async () => {
    const [a, b, c] = (await fx.images(alice, 3)) as [string, string, string];
    await api.post('/add-tags', { tags: ['sea', 'ocean'], imageIds: [a] }, alice.token);
    await api.post('/add-tags', { tags: ['sea'], imageIds: [b] }, alice.token);
    await api.post('/add-tags', { tags: ['ocean'], imageIds: [c] }, admin.token);
    const galleryTags = async () =>
      (await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=50', alice.token)).body.images.find((i) => i._id === b)?.tags;
    expect(await galleryTags()).toEqual(['sea']);
    const res = await api.put('/admin/update-tag', { oldTagValue: 'sea', newTagValue: 'OCEAN' }, admin.token);
    expect(res.status).toBe(200);
    expect(await tagsOf(a)).toEqual(['ocean']);
    expect(await tagsOf(b)).toEqual(['ocean']);
    expect(await tagsOf(c)).toEqual(['ocean']);
    expect(await adminTags()).not.toContain('sea');
    // The merge reached the cached gallery page too.
    expect(await galleryTags()).toEqual(['ocean']);
    // The filter lists them in the gallery's order (newest taken first; photos without a date go by upload time).
    const galleryOrder = (await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=50', alice.token)).body.images
      .map((i) => i._id)
      .filter((id) => [a, b, c].includes(id));
    expect(galleryOrder).toHaveLength(3);
    expect(await withTags(['ocean'])).toEqual(galleryOrder);
    // The merged tag's usage counts every image once per tagger: suggestions still rank and list it.
    expect((await api.get<string[]>('/api/search/suggestions?query=oce', alice.token)).body).toEqual(['ocean']);
    // Alice tagged 'ocean' through 'sea': she keeps those images among hers.
    const mine = await api.get<{ data: { image: Image; tags: string[] }[] }>('/mytagged-imgs', alice.token);
    expect(mine.body.data.filter((e) => [a, b].includes(e.image._id)).map((e) => e.tags)).toEqual([['ocean'], ['ocean']]);
  });

  it('merges with the merge call, and a tag into itself changes nothing', async () => {
    const [a, b] = (await fx.images(alice, 2)) as [string, string];
    await api.post('/add-tags', { tags: ['kitty', 'cat'], imageIds: [a] }, alice.token);
    await api.post('/add-tags', { tags: ['kitty'], imageIds: [b] }, alice.token);
    const res = await api.put('/admin/merge-tags', { oldTagValue: 'Kitty', existingTagValue: 'cat' }, admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true });
    expect(await tagsOf(a)).toEqual(['cat']);
    expect(await tagsOf(b)).toEqual(['cat']);
    expect((await api.put('/admin/merge-tags', { oldTagValue: 'cat', existingTagValue: 'CAT' }, admin.token)).status).toBe(200);
    expect(await tagsOf(a)).toEqual(['cat']);
    expect((await api.put('/admin/merge-tags', { oldTagValue: 'cat', existingTagValue: 'no such tag' }, admin.token)).status).toBe(404);
    expect((await api.put('/admin/merge-tags', { oldTagValue: 'no such tag', existingTagValue: 'cat' }, admin.token)).status).toBe(404);
    expect((await api.put('/admin/update-tag', { oldTagValue: 'no such tag', newTagValue: 'cat' }, admin.token)).status).toBe(404);
    expect((await api.put('/admin/update-tag', { oldTagValue: 'cat', newTagValue: '   ' }, admin.token)).status).toBe(400);
    expect(await tagsOf(a)).toEqual(['cat']);
  });

  it('answers 404 to a plain user and 401 without a token, and changes nothing', async () => {
    const [a] = (await fx.images(alice, 1)) as [string];
    await api.post('/add-tags', { tags: ['keep me', 'other'], imageIds: [a] }, alice.token);
    expect((await api.get('/admin-tags', alice.token)).status).toBe(404);
    expect((await api.put('/admin/update-tag', { oldTagValue: 'keep me', newTagValue: 'renamed' }, alice.token)).status).toBe(404);
    expect((await api.put('/admin/merge-tags', { oldTagValue: 'keep me', existingTagValue: 'other' }, alice.token)).status).toBe(404);
    expect((await api.get('/admin-tags')).status).toBe(401);
    expect((await api.put('/admin/update-tag', { oldTagValue: 'keep me', newTagValue: 'renamed' })).status).toBe(401);
    expect((await api.put('/admin/merge-tags', { oldTagValue: 'keep me', existingTagValue: 'other' })).status).toBe(401);
    expect(await tagsOf(a)).toEqual(['keep me', 'other']);
    expect(await adminTags()).not.toContain('renamed');
  });
});
