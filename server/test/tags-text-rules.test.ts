import type { Image } from '@photo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { type Person, tagFixtures } from './support/tag-fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const CONTROL = 'A tag cannot contain control characters.';
const TOO_LONG = 'A tag can have at most 64 characters (counted as stored: lower-cased).';
const BROKEN = 'Text cannot contain a lone surrogate (half of a UTF-16 pair).';

/**
 * Every path that writes a tag's text — adding tags, custom tags, the image's tag input, the admin's
 * rename and the tag a merge writes onto images — holds it to one set of rules in the form stored
 * (after lower-casing and NFC): at most 64 characters, no control characters, no lone surrogates.
 * Anything else is a 400 naming the field, and nothing is written.
 */
describe.each(testDatabases)('the text of a tag on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  const fx = tagFixtures(() => server, () => api);
  let admin: Person;
  let alice: Person;
  let photo = '';

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    admin = await fx.signUp('admin');
    alice = await fx.signUp('alice');
    [photo = ''] = await fx.images(alice, 1);
    await tagToRename();
  }, 60_000);
  afterAll(async () => server?.close());

  /** The names of every tag on a photo (read from the rows: what a write left behind). */
  const namesOnPhotos = async () =>
    (await server.rows<{ name: string }>('select distinct t.name from tags t join image_tags it on it.tag_id = t.id')).map((row) => row.name);
  const tagsOf = async (id: string) => (await api.get<Image>(`/api/images/${id}`, alice.token)).body.tags;
  /** A tag on the photo to rename or merge away; made again for each try, as a refused one must not have changed it. */
  const tagToRename = async () => expect((await api.post('/add-tags', { tags: ['to rename'], imageIds: [photo] }, alice.token)).status).toBe(200);
  /** A merge needs the tag it merges into to exist: one stored (as tags are: normalised) before these rules, on no photo. */
  const storedBefore = async (text: string) => {
    if (text.includes('\u0000')) return; // PostgreSQL could never store one
    const name = text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
    await server.sql('insert into tags (name, usage_count, created_at) values (?, 0, ?) on conflict (name) do nothing', [name, new Date().toISOString()]);
  };

  /** Each way of writing a tag's text, with `text` in it, and the field a refusal names. */
  const writes: [string, (text: string) => Promise<{ status: number; body: unknown }>, string][] = [
    ['add-tags', (text) => api.post('/add-tags', { tags: ['fine', text], imageIds: [photo] }, alice.token), 'tags.1'],
    ['a custom tag', (text) => api.post('/api/addUserTags', { tags: [text], imageIds: [photo] }, alice.token), 'tags.0'],
    ["the image's tag input", (text) => api.post(`/images/${photo}/addTag`, { tag: text }, alice.token), 'tag'],
    [
      'a rename',
      async (text) => {
        await tagToRename();
        return api.put('/admin/update-tag', { oldTagValue: 'to rename', newTagValue: text }, admin.token);
      },
      'newTagValue',
    ],
    [
      'a merge',
      async (text) => {
        await tagToRename();
        await storedBefore(text);
        return api.put('/admin/merge-tags', { oldTagValue: 'to rename', existingTagValue: text }, admin.token);
      },
      'existingTagValue',
    ],
  ];

  describe.each(writes)('through %s', (_name, write, field) => {
    it.each([
      ['a control character', 'a\u0001b'],
      ['the unit separator', 'x\u001fy'],
      ['DEL', 'del\u007f'],
      ['a C1 control (NEL, which is not white space to JavaScript)', 'next\u0085line'],
      ['only a control character', '\u0007'],
    ])('refuses %s with a 400 naming the field', async (_what, text) => {
      const res = await write(text);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: `${field}: ${CONTROL}` });
    });

    it('refuses a NUL (as every call does)', async () => {
      expect((await write('\u0000')).status).toBe(400);
    });

    it.each([
      ['"İ" × 64 (lower-cased, 128 characters)', 'İ'.repeat(64)],
      ['"क़" × 64 (NFC decomposes it, 128 characters)', '\u0958'.repeat(64)],
      ['65 letters', 'a'.repeat(65)],
    ])('refuses %s: the limit counts the tag as stored', async (_what, text) => {
      const res = await write(text);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: `${field}: ${TOO_LONG}` });
    });

    it.each([
      ['a lone high surrogate', '\ud800'],
      ['a lone low surrogate inside a word', 'a\udc00b'],
      ['an emoji cut in half', 'smile \ud83d'],
    ])('refuses %s', async (_what, text) => {
      const res = await write(text);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: `${field}: ${BROKEN}` });
    });

    it('put none of them on a photo, and renamed or merged nothing away', async () => {
      const names = await namesOnPhotos();
      expect(names.filter((name) => /[\p{Cc}\p{Cs}\uFFFD]/u.test(name) || [...name].length > 64)).toEqual([]);
      expect(names).toContain('to rename');
    });
  });

  it('still takes white space (made one space), emoji and exactly 64 characters as stored', async () => {
    const res = await api.post('/add-tags', { tags: ['summer\t\n2024', '😀'.repeat(64), 'İ'.repeat(32)], imageIds: [photo] }, alice.token);
    expect(res.status).toBe(200);
    expect(await tagsOf(photo)).toEqual(expect.arrayContaining(['summer 2024', '😀'.repeat(64), 'i\u0307'.repeat(32)]));
    const renamed = await api.put('/admin/update-tag', { oldTagValue: 'summer 2024', newTagValue: 'Ä'.repeat(64) }, admin.token);
    expect(renamed.status).toBe(200);
    expect(await tagsOf(photo)).toContain('ä'.repeat(64));
  });

  it('lets a tag stored before these rules be named, to remove it or rename it away', async () => {
    // As the old rename could leave them: a control character, and 96 characters once lower-cased.
    const legacy = ['legacy\u0001tag', 'i\u0307a'.repeat(32), 'legacy\u0002too'];
    for (const name of legacy) {
      await server.sql('insert into tags (name, usage_count, created_at) values (?, 1, ?)', [name, new Date().toISOString()]);
      const [tag] = await server.rows<{ id: number }>('select id from tags where name = ?', [name]);
      await server.sql("insert into image_tags (image_id, tag_id, tagged_by, kind, created_at) values (?, ?, ?, 'tag', ?)", [
        Number(photo), Number(tag?.id), Number(alice.id), new Date().toISOString(),
      ]);
    }
    expect((await api.put('/admin/update-tag', { oldTagValue: 'legacy\u0001tag', newTagValue: 'cleaned' }, admin.token)).status).toBe(200);
    expect((await api.put('/admin/merge-tags', { oldTagValue: 'İA'.repeat(32), existingTagValue: 'cleaned' }, admin.token)).status).toBe(200);
    expect((await api.post('/remove-tag', { tagName: ['legacy\u0002too'], imageId: photo }, alice.token)).status).toBe(200);
    const tags = await tagsOf(photo);
    expect(tags).toContain('cleaned');
    expect(tags.filter((name) => legacy.includes(name))).toEqual([]);
  });
});
