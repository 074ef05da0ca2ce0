import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Image } from '@photo/contract';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { allMigrations } from '../src/db/migrations/index.js';
import { testDatabases } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { tinyPng, upload } from './support/images.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// Searching file names by any part of them goes through an index (migration 014: FTS5 trigrams on
// SQLite, pg_trgm on PostgreSQL); the answers must stay those of the plain `like` it replaces:
// case-insensitive, `_` and `%` in the text meant literally, short texts too, deleted images gone.
describe.each(testDatabases)('searching file names on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let token: string;
  const named: Record<string, string> = {};
  const NAMES = ['IMG_0042.png', 'IMGX0042.png', 'holiday 100%.png', 'holiday 1000.png', 'ab.png', 'Fjord trip.png', 'ÉTÉ Beach.png', 'été.png'];

  const search = async (text: string) => {
    const res = await api.get<{ images: Image[] }>(`/search?query=${encodeURIComponent(text)}`, token);
    expect(res.status).toBe(200);
    return res.body.images.map((image) => image.FileName).sort();
  };

  beforeAll(async () => {
    server = await startTestServer(database, { env: { TRASH_DAYS: '0' } });
    api = apiClient(server.url);
    token = (await api.post<{ token: string }>('/signup', newPerson()).then((res) => res.body)).token;
    const files = await Promise.all(NAMES.map(async (name, i) => ({ source: await tinyPng(7300 + i), name })));
    const res = await upload(server.url, token, files);
    for (const result of res.body.results ?? []) named[result.fileName ?? ''] = result.imageId ?? '';
    expect(Object.values(named).filter(Boolean)).toHaveLength(NAMES.length);
  }, 60_000);
  afterAll(async () => server?.close());

  it('finds any part of a name, in any case, with _ and % meant literally', async () => {
    expect(await search('img_0042')).toEqual(['IMG_0042.png']);
    expect(await search('Img_00')).toEqual(['IMG_0042.png']);
    expect(await search('0042')).toEqual(['IMGX0042.png', 'IMG_0042.png']);
    expect(await search('100%')).toEqual(['holiday 100%.png']);
    expect(await search('holiday 100')).toEqual(['holiday 100%.png', 'holiday 1000.png']);
    expect(await search('ORD TR')).toEqual(['Fjord trip.png']);
    // Shorter than a trigram: answered without the index, the same way.
    expect(await search('ab')).toEqual(['ab.png']);
    expect(await search('_')).toEqual(['IMG_0042.png']);
    expect(await search('nothing like it')).toEqual([]);
  });

  it('answers the same once the images changed and each kept list was caught up', async () => {
    // Each text's list of matches is kept and, after a change, caught up with the changed images
    // only (read-caches/match-lists.ts; on SQLite from the cards in memory: read-caches/kept-matches.ts).
    // Case, letters beyond ASCII (SQLite's lower() leaves 'É' as it is) and `_`/`%` must decide
    // there exactly as in the fresh read.
    const texts = ['img_0042', 'Img_00', '0042', '100%', 'holiday 100', 'ORD TR', 'ab', '_', 'été', 'ÉTÉ', 'beach', 'É', 'Be'];
    const fresh = await Promise.all(texts.map((text) => search(text)));
    expect(fresh[texts.indexOf('beach')]).toEqual(['ÉTÉ Beach.png']);
    for (const id of Object.values(named)) expect((await api.post(`/images/${id}/addTag`, { tag: 'touched' }, token)).status).toBe(200);
    expect(await Promise.all(texts.map((text) => search(text)))).toEqual(fresh);
  });

  it('forgets a deleted image', async () => {
    expect((await api.post('/api/deleteImages', { imageIds: [named['IMG_0042.png']] }, token)).status).toBe(200);
    expect(await search('img_0042')).toEqual([]);
    expect(await search('0042')).toEqual(['IMGX0042.png']);
  });
});

describe('the file-name index on a library that existed before it (SQLite)', () => {
  it('holds the names of images uploaded before the migration', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'photo-migration-'));
    const database = openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'photos.sqlite') } });
    try {
      const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => allMigrations(database.dialect) } });
      expect((await migrator.migrateTo('013_library_touches')).error).toBeUndefined();
      await sql`pragma foreign_keys = off`.execute(database.db);
      await sql`insert into images (media_id, uploaded_by, file_name, image_name, ready, created_at) values (1, 1, 'Old Scan_1987.tif', 'Old Scan_1987', 1, '2020-01-01T00:00:00.000Z')`.execute(database.db);
      await migrateToLatest(database);
      const rows = await sql<{ rowid: number }>`select rowid from image_names where file_name like '%scan_19%'`.execute(database.db);
      expect(rows.rows).toHaveLength(1);
    } finally {
      await database.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
