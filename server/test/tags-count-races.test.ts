import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { pipelined, type PipelinedRequest } from './support/pipelined-http.js';
import { type Person, tagFixtures } from './support/tag-fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/**
 * `tags.usage_count` is the tag's rows on images outside the Trash (decisions 0004, 0008), and the
 * whole-library lists (`/admin-tags`, an admin's `/exisiting-tag`) are read off it. Real concurrent
 * requests — tags added and removed, the photo moved to the Trash and back, tags merged — must leave
 * every count equal to a fresh count of the rows, whatever order they ran in.
 */
describe.each(testDatabases)('tag counts under racing writes on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  const fx = tagFixtures(() => server, () => api);
  let admin: Person;
  let alice: Person;

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    admin = await fx.signUp('admin');
    alice = await fx.signUp('alice');
  }, 60_000);
  afterAll(async () => server?.close());

  /** Each tag named `prefix…`: its stored count and its rows on images outside the Trash, counted now. */
  async function counts(prefix: string): Promise<{ name: string; stored: number; rows: number }[]> {
    const rows = await server.rows<{ name: string; usage_count: number | string; n: number | string }>(
      `select t.name, t.usage_count,
         (select count(*) from image_tags it join images i on i.id = it.image_id where it.tag_id = t.id and i.trashed_at is null) as n
       from tags t where t.name >= ? and t.name < ? order by t.name`,
      [prefix, `${prefix}\u{10FFFF}`],
    );
    return rows.map((row) => ({ name: row.name, stored: Number(row.usage_count), rows: Number(row.n) }));
  }

  /** Counts equal the rows, and the whole-library lists name exactly the tags on a photo outside the Trash. */
  async function expectExact(prefix: string, when: string): Promise<void> {
    const now = await counts(prefix);
    expect(now.filter((tag) => tag.stored !== tag.rows), `counts that differ from the rows ${when}`).toEqual([]);
    const inUse = now.filter((tag) => tag.rows > 0).map((tag) => tag.name);
    const ours = (names: string[]) => names.filter((name) => name.startsWith(prefix));
    expect(ours((await api.get<string[]>('/admin-tags', admin.token)).body), `/admin-tags ${when}`).toEqual(inUse);
    expect(ours((await api.get<{ tags: string[] }>('/exisiting-tag', admin.token)).body.tags), `/exisiting-tag ${when}`).toEqual(inUse);
  }

  const isTrashed = async (id: string) =>
    (await server.rows<{ trashed_at: string | null }>('select trashed_at from images where id = ?', [Number(id)]))[0]?.trashed_at != null;
  const trash = (id: string) => api.post('/api/deleteImages', { imageIds: [id] }, alice.token);
  const restore = (id: string) => api.post('/api/trash/restore', { imageIds: [id] }, alice.token);
  /** One photo's requests, all sent at once on one connection (their handlers interleave), and the photos' connections at once. */
  const race = async (bursts: PipelinedRequest[][]) => (await Promise.all(bursts.map((burst) => pipelined(server.url, burst)))).flat();
  const post = (path: string, body: unknown, person: Person): PipelinedRequest => ({ method: 'POST', path, body, token: person.token });
  const put = (path: string, body: unknown, person: Person): PipelinedRequest => ({ method: 'PUT', path, body, token: person.token });

  /** Every answer is a success or a 404 (the photo was in the Trash, or not, at that moment; a tag already merged away): never a 5xx. */
  function expectNoFailures(answers: { status: number; body: unknown }[]): void {
    const odd = answers.filter((res) => res.status !== 200 && res.status !== 404).map((res) => `${res.status} ${JSON.stringify(res.body)}`);
    expect(odd).toEqual([]);
  }

  it('keeps counts exact while tags are added and removed as the photo goes to the Trash and back', async () => {
    const prefix = 'race-trash-';
    const photos = await fx.images(alice, 4);
    for (let round = 0; round < 4; round += 1) {
      for (const id of photos) {
        if (await isTrashed(id)) expect((await restore(id)).status).toBe(200);
        // Tags to remove during the race, two people's rows of one of them.
        expect((await api.post('/add-tags', { tags: [`${prefix}old-${round}`, `${prefix}shared`], imageIds: [id] }, alice.token)).status).toBe(200);
        expect((await api.post('/add-tags', { tags: [`${prefix}shared`], imageIds: [id] }, admin.token)).status).toBe(200);
      }
      const answers = await race(
        photos.map((id, p) =>
          Array.from({ length: 24 }, (_, i) => {
            const tag = `${prefix}${round}-${p}-${i}`;
            switch (i % 8) {
              case 0: return post('/add-tags', { tags: [tag, `${prefix}shared`], imageIds: [id] }, alice);
              case 1: return post('/api/deleteImages', { imageIds: [id] }, alice);
              case 2: return post(`/images/${id}/addTag`, { tag }, admin);
              case 3: return post('/api/trash/restore', { imageIds: [id] }, alice);
              case 4: return post('/api/addUserTags', { tags: [tag, `${prefix}every`], imageIds: [id] }, alice);
              case 5: return post('/remove-tag', { tagName: [i < 8 ? `${prefix}old-${round}` : `${prefix}shared`], imageId: id }, alice);
              case 6: return post('/api/deleteImages', { imageIds: [id] }, admin);
              default: return post('/api/trash/restore', { imageIds: [id] }, admin);
            }
          }),
        ),
      );
      expectNoFailures(answers);
      await expectExact(prefix, `after round ${round}`);
      // Whatever state each photo was left in, moving it once more must move exactly its rows.
      for (const id of photos) expect((await ((await isTrashed(id)) ? restore(id) : trash(id))).status).toBe(200);
      await expectExact(prefix, `after round ${round}, each photo moved once more`);
      for (const id of photos) expect((await ((await isTrashed(id)) ? restore(id) : trash(id))).status).toBe(200);
      await expectExact(prefix, `after round ${round}, each photo moved back`);
    }
  });

  it('keeps counts exact while an admin merges and renames tags that are being added, removed and trashed', async () => {
    const prefix = 'race-merge-';
    const photos = await fx.images(alice, 4);
    for (let round = 0; round < 4; round += 1) {
      const [from, into, renamed] = [`${prefix}from-${round}`, `${prefix}into-${round}`, `${prefix}renamed-${round}`];
      for (const [p, id] of photos.entries()) {
        if (await isTrashed(id)) expect((await restore(id)).status).toBe(200);
        const tags = p % 2 === 0 ? [from, into] : [from];
        expect((await api.post('/add-tags', { tags, imageIds: [id] }, alice.token)).status).toBe(200);
      }
      const bursts = photos.map((id, p) =>
        Array.from({ length: 12 }, (_, i) => {
          switch (i % 6) {
            case 0: return post('/add-tags', { tags: [i % 4 === 0 ? from : into], imageIds: [id] }, admin);
            case 1: return post('/api/deleteImages', { imageIds: [id] }, alice);
            case 2: return post('/remove-tag', { tagName: [p % 2 === 0 ? into : from], imageId: id }, alice);
            case 3: return post('/api/trash/restore', { imageIds: [id] }, alice);
            case 4: return post(`/images/${id}/addTag`, { tag: i % 4 === 0 ? into : from }, alice);
            default: return post(i % 4 === 1 ? '/api/deleteImages' : '/api/trash/restore', { imageIds: [id] }, alice);
          }
        }),
      );
      // Amid the photos' requests: the merge, and renaming what it merges into.
      bursts[0]?.splice(6, 0, put('/admin/merge-tags', { oldTagValue: from, existingTagValue: into }, admin));
      bursts[1]?.splice(9, 0, put('/admin/update-tag', { oldTagValue: into, newTagValue: renamed }, admin));
      const answers = await race(bursts);
      expectNoFailures(answers);
      await expectExact(prefix, `after round ${round}`);
      for (const id of photos) expect((await ((await isTrashed(id)) ? restore(id) : trash(id))).status).toBe(200);
      await expectExact(prefix, `after round ${round}, each photo moved once more`);
    }
  });

  it('never fails a merge or a delete forever racing each other over the same tags (no deadlock on PostgreSQL)', async () => {
    const prefix = 'race-purge-';
    for (let round = 0; round < 6; round += 1) {
      const [from, into] = [`${prefix}from-${round}`, `${prefix}into-${round}`];
      const photos = await fx.images(alice, 6);
      const kept = await fx.images(alice, 2);
      for (const [p, id] of [...photos, ...kept].entries()) {
        expect((await api.post('/add-tags', { tags: p % 2 === 0 ? [from, into] : [from], imageIds: [id] }, alice.token)).status).toBe(200);
      }
      for (const id of photos) expect((await trash(id)).status).toBe(200);
      // Each trashed photo deleted for good on its own connection, the merge among them.
      const bursts = photos.map((id) => [post('/api/trash/delete', { imageIds: [id] }, alice)]);
      bursts[round % photos.length]?.unshift(put('/admin/merge-tags', { oldTagValue: from, existingTagValue: into }, admin));
      expectNoFailures(await race(bursts));
      await expectExact(prefix, `after round ${round}`);
    }
  });
});

