import type { Image } from '@photo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { tagFixtures, type Person } from './support/tag-fixtures.js';
import { searchAs, searchCast } from './support/search.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/**
 * `GET /search` reads differently for someone who sees few photos (which of their visible photos
 * match) and someone who sees more than 5,000 (the gallery order read until 500 match, or, on
 * SQLite, just the few images whose name or tag can match). Both must give the same answer the
 * plain rule gives: every visible match, newest taken first, at most 500, nothing they may not see.
 */
const FILLERS = 5_100;

describe.each(testDatabases)('search as seen by a few-photo view and by a whole library of %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let admin: Person;
  let olga: Person;
  let rita: Person;
  let paula: Person;
  const ids: Record<string, string> = {};

  const search = (person: Person, text: string) => searchAs(api, person.token, text);
  const names = (images: Image[]) => images.map((image) => image.FileName).sort();

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    const cast = await searchCast(server, api, ['IMG_0042.png', 'beach day.png', 'harbour.png', 'private beach.png'], 8100);
    const fx = cast.fx;
    ({ admin, olga, rita } = cast);
    Object.assign(ids, cast.ids);
    expect((await api.post(`/images/${ids['harbour.png']}/addTag`, { tag: 'beach' }, olga.token)).status).toBe(200);
    // Rita sees two of Olga's photos: the tagged harbour and IMG_0042.
    await fx.share(olga, [ids['harbour.png'] ?? '', ids['IMG_0042.png'] ?? ''], rita);

    // More than 5,000 photos for the admin, made straight in the database: one per person (an
    // account holds a picture once), each a copy of the harbour's stored picture, named `filler N`.
    await server.sql(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${FILLERS})
       insert into users (username, email, password_hash, role, created_at, updated_at)
       select 'filler', 'filler-' || i || '@search.test', 'x', 'user', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' from n`,
    );
    await server.sql(
      `insert into images (media_id, uploaded_by, file_name, image_name, ready, visible_since, created_at, taken_key, date_source)
       select images.media_id, users.id, 'filler ' || users.id || '.png', 'filler', 1, images.visible_since, images.created_at,
              images.taken_key - users.id * 60000, 'upload'
       from images, users where images.id = ? and users.email like 'filler-%@search.test'`,
      [Number(ids['harbour.png'])],
    );
    // A scan from ten years ago, uploaded last: it sorts last (by when it was taken, not by id).
    await server.sql('update images set taken_key = taken_key - ? where id = ?', [10 * 365 * 86_400_000, Number(ids['private beach.png'])]);
    await server.sql('update library_state set version = version + 1, reset_version = version + 1');

    // Paula sees 1,000 of Olga's photos (more than one slice of her visible list is read at a time):
    // 1,000 more pictures of Olga's, made in the database, named `shared N.png` (a third) or `.jpg`,
    // shared with her.
    paula = await fx.signUpConfirmed('paula');
    await server.sql(
      `insert into media (content_hash, mime, byte_size, status, width, height, placeholder, original_key, display_key, thumbnail_key, created_at)
       select media.content_hash || '-' || users.id, media.mime, media.byte_size, media.status, media.width, media.height, media.placeholder,
              media.original_key, media.display_key, media.thumbnail_key, media.created_at
       from media, images, users where images.id = ? and media.id = images.media_id and users.email like 'filler-%@search.test' and users.id % 5 = 0`,
      [Number(ids['harbour.png'])],
    );
    await server.sql(
      `insert into images (media_id, uploaded_by, file_name, image_name, ready, visible_since, created_at, taken_key, date_source)
       select media.id, images.uploaded_by, 'shared ' || media.id || case when media.id % 3 = 0 then '.png' else '.jpg' end, 'shared', 1, images.visible_since, images.created_at,
              images.taken_key - media.id * 60000, 'upload'
       from media, images where images.id = ? and media.content_hash like (select content_hash from media where id = images.media_id) || '-%'`,
      [Number(ids['harbour.png'])],
    );
    const shared = await server.rows<{ id: number | string }>("select id from images where file_name like 'shared %' order by id");
    expect(shared).toHaveLength(FILLERS / 5);
    await fx.share(olga, shared.map((row) => String(row.id)).slice(0, 1_000), paula);
  }, 120_000);
  afterAll(async () => server?.close());

  it('finds, among a few shared photos, only those: by tag and by name', async () => {
    expect(names(await search(rita, 'beach'))).toEqual(['harbour.png']);
    expect(names(await search(rita, 'img_00'))).toEqual(['IMG_0042.png']);
    expect(names(await search(rita, 'filler'))).toEqual([]);
    expect(names(await search(rita, 'private'))).toEqual([]);
  });

  it('reads a view of 1,000 photos slice by slice: the first 500 matches in gallery order, and a match only the last slice holds', async () => {
    const found = await search(paula, 'shared');
    expect(found).toHaveLength(500);
    const visible = await server.rows<{ file_name: string }>(
      `select images.file_name from images join access_record_images shared on shared.image_id = images.id
       where images.file_name like 'shared %' order by images.taken_key desc, images.id desc`,
    );
    expect(visible).toHaveLength(1_000);
    expect(found.map((image) => image.FileName)).toEqual(visible.slice(0, 500).map((row) => row.file_name));
    // '.png' is in over 5,000 names of the library, so on both databases it is looked for among
    // Paula's own 1,000, and a third of them match, spread over both slices.
    const png = visible.map((row) => row.file_name).filter((name) => name.endsWith('.png'));
    expect(png.length).toBeGreaterThan(300);
    expect((await search(paula, '.png')).map((image) => image.FileName)).toEqual(png);
    const oldest = visible.at(-1)?.file_name ?? '';
    expect(names(await search(paula, oldest))).toEqual([oldest]);
    expect(names(await search(paula, 'filler'))).toEqual([]);
  });

  it('finds, in a library of over 5,000, the few whose name or tag matches', async () => {
    const beach = await search(admin, 'beach');
    expect(names(beach)).toEqual(['beach day.png', 'harbour.png', 'private beach.png']);
    expect(beach.at(-1)?.FileName).toBe('private beach.png');
    const keys = beach.map((image) => Date.parse(image.sortedAt));
    expect(keys).toEqual([...keys].sort((a, b) => b - a));
    expect(names(await search(admin, 'img_0042'))).toEqual(['IMG_0042.png']);
    const some = await server.rows<{ id: number | string }>("select id from images where file_name like 'filler %' order by id limit 1");
    const first = `filler ${String(some[0]?.id)}.png`;
    expect(names(await search(admin, first))).toEqual([first]);
  });

  it('answers a common match with the first 500 in gallery order', async () => {
    const found = await search(admin, 'filler');
    expect(found).toHaveLength(500);
    const keys = found.map((image) => Date.parse(image.sortedAt));
    expect(keys).toEqual([...keys].sort((a, b) => b - a));
    // The newest fillers are those with the lowest uploader ids (taken_key - id minutes).
    const newest = await server.rows<{ file_name: string }>(
      "select file_name from images where file_name like 'filler %' order by taken_key desc, id desc limit 500",
    );
    expect(names(found)).toEqual(newest.map((row) => row.file_name).sort());
  });
});
