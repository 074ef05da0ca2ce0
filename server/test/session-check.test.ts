import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedUpPerson, signUpConfirmed } from './support/accounts.js';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// Every signed-in call checks its session against the account and the library version. On SQLite
// the answer is kept while nothing could have changed it (db/local-changes.ts, decision 0035): these
// changes are made from outside the server's own connection (`server.sql` opens another one, as a
// script or a second process would), and each must count on the very next call.
describe.each(testDatabases)('session checks see every change at once on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let admin: SignedUpPerson;
  let bob: SignedUpPerson;

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
  }, 60_000);
  afterAll(async () => server?.close());

  it('refuses a token revoked by another connection on the next call, after many calls that passed', async () => {
    for (let i = 0; i < 5; i += 1) expect((await api.get('/api/users/me', bob.token)).status).toBe(200);
    await server.sql('update users set token_version = token_version + 1 where email = ?', [bob.email]);
    expect((await api.get('/api/users/me', bob.token)).status).toBe(401);
  });

  it('sees a role given and taken by another connection on the next call', async () => {
    const carol = await signUpConfirmed(server, api, { prefix: 'carol' });
    expect((await api.get('/admin-tags', carol.token)).status).toBe(404);
    await server.sql("update users set role = 'admin' where email = ?", [carol.email]);
    expect((await api.get('/admin-tags', carol.token)).status).toBe(200);
    await server.sql("update users set role = 'user' where email = ?", [carol.email]);
    expect((await api.get('/admin-tags', carol.token)).status).toBe(404);
  });

  it('refuses the token of an account removed by another connection', async () => {
    const dave = await signUpConfirmed(server, api, { prefix: 'dave' });
    expect((await api.get('/api/users/me', dave.token)).status).toBe(200);
    await server.sql('delete from users where email = ?', [dave.email]);
    expect((await api.get('/api/users/me', dave.token)).status).toBe(401);
  });

  it('keeps answering the others while one account changes', async () => {
    const [before, after] = [await api.get('/api/users/me', admin.token), await api.get('/api/users/me', admin.token)];
    expect([before.status, after.status]).toEqual([200, 200]);
  });
});
