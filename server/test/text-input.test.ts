import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flawedTextAt } from '../src/http/text-input.js';
import { testDatabases } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/**
 * A NUL character in any text a call takes is refused with a 400 naming the field (http/route.ts,
 * text-input.ts). Before, PostgreSQL answered 500 wherever such text reached a statement (a
 * template, a tag filter, suggestions, a recipient's name), and SQLite's `like` matched everything.
 */
describe.each(testDatabases)('text holding a NUL on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let token = '';

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    token = (await api.post<{ token: string }>('/signup', newPerson())).body.token;
  }, 60_000);
  afterAll(async () => server?.close());

  const NUL = 'a\u0000b';
  const cases: [string, () => Promise<{ status: number; body: unknown }>, string][] = [
    ['a template', () => api.post('/api/emailTemplate', { templateName: 'Family', subjectEmail: NUL, bodyEmail: 'x' }, token), 'subjectEmail'],
    ['a recipient looked up by name', () => api.post('/api/shared-with-user', { userName: NUL }, token), 'userName'],
    ['the tag filter', () => api.post('/api/headerSearchTags', { query: NUL }, token), 'query'],
    ['the tag filter, as a list', () => api.post('/api/headerSearchTags', { query: ['beach', NUL] }, token), 'query.1'],
    ['suggestions', () => api.get('/api/search/suggestions?query=a%00b', token), 'querystring.query'],
    ['search', () => api.get('/search?query=a%00b', token), 'querystring.query'],
    ['a share link', () => api.get('/shared-images/a%00b'), 'params.link'],
    ['a sign-up proof', () => api.post('/signup', { ...newPerson(), proof: NUL }), 'proof'],
    ['a password reset', () => api.post('/reset-password', { token: NUL, newPassword: 'A-long-enough-1' }), 'token'],
  ];

  it.each(cases)('refuses %s with a 400 naming the field', async (_name, call, field) => {
    const res = await call();
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: `${field}: Text cannot contain a NUL character.` });
  });

  it('refuses half of an emoji (a lone surrogate) in any field: a template, a name looked up', async () => {
    for (const [call, field] of [
      [() => api.post('/api/emailTemplate', { templateName: 'Cut \ud83d', subjectEmail: 's', bodyEmail: 'b' }, token), 'templateName'],
      [() => api.post('/api/shared-with-user', { userName: 'x\ude00' }, token), 'userName'],
    ] as const) {
      const res = await call();
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: `${field}: Text cannot contain a lone surrogate (half of a UTF-16 pair).` });
    }
  });

  it('leaves other text alone: a template with tabs and new lines is kept', async () => {
    const res = await api.post('/api/emailTemplate', { templateName: 'Tabs', subjectEmail: 'Photos\tfrom me', bodyEmail: 'Line one\nLine two' }, token);
    expect(res.status).toBe(201);
  });
});

describe('flawedTextAt', () => {
  it('finds the first string holding a NUL or a lone surrogate, however nested, and its path', () => {
    expect(flawedTextAt({ a: 'fine', b: [1, 'x', { c: 'y\u0000' }] })?.path).toEqual(['b', '2', 'c']);
    expect(flawedTextAt('\u0000')?.path).toEqual([]);
    expect(flawedTextAt({ a: 'cut \ud83d' })).toEqual({ path: ['a'], flaw: 'Text cannot contain a lone surrogate (half of a UTF-16 pair).' });
    expect(flawedTextAt({ a: ['ok', 'an emoji 😀 whole'], b: null, c: 3, d: true })).toBeUndefined();
  });
});
