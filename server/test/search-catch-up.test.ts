import type { Image } from '@photo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { tagFixtures, type Person } from './support/tag-fixtures.js';
import { tinyPng, upload } from './support/images.js';
import { searchAs, searchCast } from './support/search.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/**
 * A search's list of matches is kept and caught up from one library version to the next
 * (read-caches/match-lists.ts) rather than read again after every like or tag. Whatever happens in
 * between — a tag added or taken off, a like, an upload, a delete, a share switched off — the
 * answer must be the one the plain rule gives at that moment: every visible match, newest taken
 * first, at most 500. Each step searches, changes the library, and searches again.
 */
const WAVES = 520;

describe.each(testDatabases)('search answers caught up with the library on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let admin: Person;
  let olga: Person;
  let rita: Person;
  const ids: Record<string, string> = {};

  const search = (person: Person, text: string) => searchAs(api, person.token, text);
  /** The plain rule for someone who sees the whole library, read straight from the database. */
  const truth = async (text: string) =>
    (
      await server.rows<{ id: number | string }>(
        `select images.id from images where images.ready = 1 and (lower(images.file_name) like ? or exists (
           select 1 from image_tags join tags on tags.id = image_tags.tag_id where image_tags.image_id = images.id and tags.name like ?))
         order by images.taken_key desc, images.id desc limit 500`,
        [`%${text}%`, `${text}%`],
      )
    ).map((row) => String(row.id));
  const idsOf = (images: Image[]) => images.map((image) => image._id);
  const addTag = async (person: Person, id: string, tag: string) =>
    expect((await api.post(`/images/${id}/addTag`, { tag }, person.token)).status).toBe(200);
  const removeTag = async (person: Person, id: string, tag: string) =>
    expect((await api.post('/remove-tag', { tagName: [tag], imageId: id }, person.token)).status).toBe(200);

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    const cast = await searchCast(server, api, ['beach day.png', 'harbour.png', 'dunes.png', 'lighthouse.png'], 9100);
    const fx = cast.fx;
    ({ admin, olga, rita } = cast);
    Object.assign(ids, cast.ids);
    // Rita sees two of Olga's photos: the harbour and the dunes.
    await fx.share(olga, [ids['harbour.png'] ?? '', ids['dunes.png'] ?? ''], rita);
    // 520 admin photos named `wave N.png`, made in the database (copies of the harbour's picture:
    // an account holds a picture once), taken a minute apart, all older than Olga's; then every
    // reader starts over.
    const waves = `(with recursive n(i) as (select 1 union all select i + 1 from n where i < ${WAVES}) select i from n) n`;
    await server.sql(
      `insert into media (content_hash, mime, byte_size, status, width, height, placeholder, original_key, display_key, thumbnail_key, created_at)
       select media.content_hash || '-wave-' || n.i, media.mime, media.byte_size, media.status, media.width, media.height, media.placeholder,
              media.original_key, media.display_key, media.thumbnail_key, media.created_at
       from images join media on media.id = images.media_id, ${waves} where images.id = ?`,
      [Number(ids['harbour.png'])],
    );
    await server.sql(
      `insert into images (media_id, uploaded_by, file_name, image_name, ready, visible_since, created_at, taken_key, date_source)
       select copy.id, ?, 'wave ' || n.i || '.png', 'wave', 1, images.visible_since, images.created_at, images.taken_key - n.i * 60000, 'upload'
       from images join media on media.id = images.media_id, ${waves}, media copy
       where images.id = ? and copy.content_hash = media.content_hash || '-wave-' || n.i`,
      [Number(admin.id), Number(ids['harbour.png'])],
    );
    await server.sql('update library_state set version = version + 1, reset_version = version + 1');
  }, 60_000);
  afterAll(async () => server?.close());

  it('shows a tag added or taken off, an upload and a delete at once, in gallery order, and a like changes no match', async () => {
    expect(idsOf(await search(admin, 'beach'))).toEqual(await truth('beach'));
    const wave = await server.rows<{ id: number | string }>("select id from images where file_name = 'wave 200.png'");
    const wave200 = String(wave[0]?.id);

    // A tag puts an old photo in its place among the matches.
    await addTag(admin, wave200, 'beach');
    let found = idsOf(await search(admin, 'beach'));
    expect(found).toContain(wave200);
    expect(found).toEqual(await truth('beach'));

    // A like matches nothing new; the answer shows the like.
    expect((await api.post(`/images/${wave200}/like`, { liked: true }, admin.token)).status).toBe(200);
    const liked = await search(admin, 'beach');
    expect(idsOf(liked)).toEqual(found);
    expect(liked.find((image) => image._id === wave200)?.likes).toBe(1);

    // A photo whose name does not match, tagged by its owner.
    await addTag(olga, ids['harbour.png'] ?? '', 'beach');
    expect(idsOf(await search(admin, 'beach'))).toEqual(await truth('beach'));

    // Taken off again, the old photo leaves the answer.
    await removeTag(admin, wave200, 'beach');
    found = idsOf(await search(admin, 'beach'));
    expect(found).not.toContain(wave200);
    expect(found).toEqual(await truth('beach'));

    // A new upload whose name matches comes first (taken now).
    const hut = await upload(server.url, olga.token, [{ source: await tinyPng(9200), name: 'beach hut.png' }]);
    const hutId = hut.body.results?.[0]?.imageId ?? '';
    found = idsOf(await search(admin, 'beach'));
    expect(found[0]).toBe(hutId);
    expect(found).toEqual(await truth('beach'));

    // A deleted photo is gone from the answer.
    expect((await api.post('/api/deleteImages', { imageIds: [hutId] }, olga.token)).status).toBe(200);
    found = idsOf(await search(admin, 'beach'));
    expect(found).not.toContain(hutId);
    expect(found).toEqual(await truth('beach'));
  });

  it('keeps a list cut at 500 right: a match lost lets the next one in, a new one pushes the last out', async () => {
    let found = idsOf(await search(admin, 'wave'));
    expect(found).toHaveLength(500);
    expect(found).toEqual(await truth('wave'));
    const sixth = found[5] ?? '';
    const last = found[499] ?? '';

    // The tag 'wave' on the sixth: it still matches (by name), nothing moves.
    await addTag(admin, sixth, 'wave');
    expect(idsOf(await search(admin, 'wave'))).toEqual(found);

    // A photo newer than every wave, tagged 'wave', comes first and the 500th drops out.
    await addTag(olga, ids['lighthouse.png'] ?? '', 'wave');
    found = idsOf(await search(admin, 'wave'));
    expect(found[0]).toBe(ids['lighthouse.png']);
    expect(found).not.toContain(last);
    expect(found).toEqual(await truth('wave'));

    // Taken off again: the 500th comes back, which only reading the list again can know.
    await removeTag(olga, ids['lighthouse.png'] ?? '', 'wave');
    found = idsOf(await search(admin, 'wave'));
    expect(found).toContain(last);
    expect(found).toEqual(await truth('wave'));
  });

  it('answers searches sent at the same moment after a change alike, and as the rule says', async () => {
    expect(idsOf(await search(admin, 'beach'))).toEqual(await truth('beach'));
    await addTag(olga, ids['dunes.png'] ?? '', 'beach');
    const answers = await Promise.all(Array.from({ length: 20 }, () => search(admin, 'beach')));
    const expected = await truth('beach');
    expect(expected).toContain(ids['dunes.png']);
    for (const answer of answers) expect(idsOf(answer)).toEqual(expected);
  });

  it('catches a restricted view up with tags on its photos only, and empties it when the share is switched off', async () => {
    const fx = tagFixtures(() => server, () => api);
    expect(idsOf(await search(rita, 'sand'))).toEqual([]);
    // A tag on a photo Rita does not see finds nothing for her; one on a photo she sees does.
    await addTag(olga, ids['lighthouse.png'] ?? '', 'sand');
    expect(idsOf(await search(rita, 'sand'))).toEqual([]);
    await addTag(olga, ids['dunes.png'] ?? '', 'sand');
    expect(idsOf(await search(rita, 'sand'))).toEqual([ids['dunes.png']]);
    // Her list of matches is kept now: the same tag on a photo she does not see is checked against her view.
    await addTag(olga, ids['beach day.png'] ?? '', 'sand');
    expect(idsOf(await search(rita, 'sand'))).toEqual([ids['dunes.png']]);
    await addTag(rita, ids['harbour.png'] ?? '', 'sand');
    const both = (await server.rows<{ id: number | string }>(
      'select id from images where id in (?, ?) order by taken_key desc, id desc',
      [Number(ids['harbour.png']), Number(ids['dunes.png'])],
    )).map((row) => String(row.id));
    expect(idsOf(await search(rita, 'sand'))).toEqual(both);
    await fx.switchShare(olga, rita, false);
    expect(idsOf(await search(rita, 'sand'))).toEqual([]);
    await fx.switchShare(olga, rita, true);
    expect(idsOf(await search(rita, 'sand'))).toEqual(both);
  });
});
