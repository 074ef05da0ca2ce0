import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsersRepository } from '../src/auth/users.repository.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { signUpConfirmed } from './support/accounts.js';
import { createPostgresDatabase, testDatabases } from './support/databases.js';
import { apiClient, newPerson } from './support/http.js';
import { tinyPng, upload } from './support/images.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/** Real concurrent requests against a real server: a race must never answer 5xx nor break a rule. */
describe.each(testDatabases)('races on %s', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(database);
  }, 60_000);
  afterAll(async () => server?.close());

  it('forty first sign-ups at the same moment make exactly one admin', async () => {
    const api = apiClient(server.url);
    const answers = await Promise.all(Array.from({ length: 40 }, () => api.post<{ token: string }>('/signup', newPerson('first'))));
    expect(answers.map((res) => res.status)).toEqual(Array(40).fill(201));
    const roles = answers.map((res) => (decodeJwt(res.body.token)['user'] as { role: string }).role);
    expect(roles.filter((role) => role === 'admin')).toHaveLength(1);
  });

  it('a like, tag or in-photo mark racing the delete of its image answers 404, never 500', async () => {
    const api = apiClient(server.url);
    const owner = await signUpConfirmed(server, api, { prefix: 'racer' });
    const files = await Promise.all(Array.from({ length: 30 }, async (_, i) => ({ source: await tinyPng(11_000 + i), name: `race-${i}.png` })));
    const ids = ((await upload(server.url, owner.token, files)).body.results ?? []).map((r) => r.imageId!);
    expect(ids).toHaveLength(30);
    // Around each delete, writes that passed their access check a moment before it land after it.
    const writes = (id: string, n: number) => [
      api.post(`/images/${id}/like`, { liked: n % 2 === 0 }, owner.token),
      api.post(`/images/${id}/addTag`, { tag: `race-${id}-${n}` }, owner.token),
      api.post('/inPhoto', { imageId: id }, owner.token),
    ];
    const answers = await Promise.all(
      ids.flatMap((id) => [...writes(id, 0), ...writes(id, 1), api.post('/api/deleteImages', { imageIds: [id] }, owner.token), ...writes(id, 2), ...writes(id, 3)]),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses.every((status) => status === 200 || status === 404)).toBe(true);
    for (const id of ids) expect((await api.get(`/api/images/${id}`, owner.token)).status).toBe(404);
  });
});

describe('first account on PostgreSQL, two sign-up transactions overlapping', () => {
  it('makes the second one wait and become a plain user (the check and the insert are not enough alone)', async () => {
    const pgDb = await createPostgresDatabase();
    const database = openDatabase({ database: { kind: 'postgres', url: pgDb.url } });
    try {
      await migrateToLatest(database);
      const users = new UsersRepository(database.db);
      const account = (email: string) => ({
        username: email, email, password_hash: 'x', profile_image_key: null, created_at: new Date().toISOString(), updated_at: new Date().toISOString(),
      });
      let releaseFirst!: () => void;
      const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
      let firstInserted!: () => void;
      const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
      // The first sign-up has inserted its row but not committed when the second one starts.
      const first = database.db.transaction().execute(async (trx) => {
        const row = await users.insertFirstIsAdmin(account('one@example.com'), trx, 'postgres');
        firstInserted();
        await firstHolds;
        return row.role;
      });
      await inserted;
      const second = database.db.transaction().execute(async (trx) => (await users.insertFirstIsAdmin(account('two@example.com'), trx, 'postgres')).role);
      await new Promise((resolve) => setTimeout(resolve, 200));
      releaseFirst();
      expect([await first, await second]).toEqual(['admin', 'user']);
    } finally {
      await database.close();
      await pgDb.drop();
    }
  });
});
