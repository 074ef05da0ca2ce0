import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailTemplate } from '@photo/contract';
import { testDatabases } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { startTestServer, type TestServer } from './support/test-server.js';

describe.each(testDatabases)('e-mail templates on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;

  async function signUp(): Promise<string> {
    const res = await api.post<{ token: string }>('/signup', newPerson());
    expect(res.status).toBe(201);
    return res.body.token;
  }
  const list = async (token: string) => (await api.get<EmailTemplate[]>('/api/savedTemplates', token)).body;
  const defaults = async (token: string) => (await list(token)).filter((t) => t.isDefault).map((t) => t.templateName);
  const create = (token: string, body: Record<string, unknown>) => api.post<EmailTemplate>('/api/emailTemplate', body, token);

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    await signUp(); // the admin
  });
  afterAll(async () => server?.close());

  it('makes the first template the default and moves the default when asked', async () => {
    const token = await signUp();
    expect(await list(token)).toEqual([]);
    const first = await create(token, { templateName: 'Family', subjectEmail: 'Photos from {{sender}}', bodyEmail: 'See {{link}}', isDefault: false });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ templateName: 'Family', subjectEmail: 'Photos from {{sender}}', bodyEmail: 'See {{link}}', isDefault: true });
    const second = await create(token, { templateName: 'Work', subjectEmail: 's', bodyEmail: 'b', isDefault: false });
    expect(second.body.isDefault).toBe(false);
    expect(await defaults(token)).toEqual(['Family']);

    const third = await create(token, { templateName: 'Friends', subjectEmail: '', bodyEmail: '', isDefault: true });
    expect(third.body.isDefault).toBe(true);
    expect(await defaults(token)).toEqual(['Friends']);

    expect((await api.put(`/api/emailTemplate/${second.body._id}/setDefault`, undefined, token)).status).toBe(200);
    expect(await defaults(token)).toEqual(['Work']);

    const updated = await api.put<EmailTemplate>(`/api/emailTemplate/${first.body._id}`, { templateName: 'Family 2', subjectEmail: 'x', bodyEmail: 'y', isDefault: true }, token);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ _id: first.body._id, templateName: 'Family 2', subjectEmail: 'x', bodyEmail: 'y', isDefault: true });
    expect(await defaults(token)).toEqual(['Family 2']);
    expect((await list(token)).map((t) => t.templateName)).toEqual(['Family 2', 'Work', 'Friends']);
  });

  it('allows empty fields (spec §5) but bounds their sizes', async () => {
    const token = await signUp();
    const empty = await create(token, {});
    expect(empty.status).toBe(201);
    expect(empty.body).toMatchObject({ templateName: '', subjectEmail: '', bodyEmail: '', isDefault: true });
    const tooLong = await create(token, { templateName: 'x'.repeat(201) });
    expect(tooLong.status).toBe(400);
    expect((await create(token, { bodyEmail: 'x'.repeat(20_001) })).status).toBe(400);
    expect(await list(token)).toHaveLength(1);
  });

  it("keeps each person's templates to themselves: another's template is not found", async () => {
    const owner = await signUp();
    const other = await signUp();
    const mine = (await create(owner, { templateName: 'Mine', subjectEmail: 's', bodyEmail: 'b' })).body;
    await create(other, { templateName: 'Theirs' });
    expect((await list(other)).map((t) => t.templateName)).toEqual(['Theirs']);
    const setDefault = await api.put(`/api/emailTemplate/${mine._id}/setDefault`, undefined, other);
    expect(setDefault.status).toBe(404);
    const edit = await api.put(`/api/emailTemplate/${mine._id}`, { templateName: 'Hijacked' }, other);
    expect(edit.status).toBe(404);
    expect((await list(owner))[0]).toMatchObject({ templateName: 'Mine', isDefault: true });
    expect(await defaults(other)).toEqual(['Theirs']);
    expect((await api.put('/api/emailTemplate/abc/setDefault', undefined, owner)).status).toBe(404);
    expect((await api.get('/api/savedTemplates')).status).toBe(401);
  });

  it('unsets the default when an edit says so, and a lone template becomes default again on load (spec §4)', async () => {
    const token = await signUp();
    const only = (await create(token, { templateName: 'Only' })).body;
    await api.put(`/api/emailTemplate/${only._id}`, { templateName: 'Only', isDefault: false }, token);
    expect(await defaults(token)).toEqual(['Only']);
    const two = (await create(token, { templateName: 'Two' })).body;
    await api.put(`/api/emailTemplate/${only._id}`, { templateName: 'Only', isDefault: false }, token);
    expect(await defaults(token)).toEqual([]);
    expect((await list(token)).map((t) => t._id)).toEqual([only._id, two._id]);
  });
});
