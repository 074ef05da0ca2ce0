import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';

// DECISIONS §2: one origin for the web app and the API.
describe('web app and API on one origin', () => {
  let server: TestServer;
  let api: ApiClient;
  let token: string;
  const html = '<!doctype html><html><body><div id="root"></div><script src="/assets/app-abc123.js"></script></body></html>';

  let webDist: string;

  beforeAll(async () => {
    webDist = await mkdtemp(path.join(os.tmpdir(), 'photo-web-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), html);
    await writeFile(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log("app")');
    await writeFile(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startTestServer('sqlite', { env: { WEB_DIST: webDist } });
    api = apiClient(server.url);
    token = (await api.post<{ token: string }>('/signup', newPerson())).body.token;
  });
  afterAll(async () => server?.close());

  const navigate = (p: string) =>
    fetch(new URL(p, server.url), { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });

  it.each(['/', '/signin', "/photos-i'm-in", '/sharedMedia/sharedWithMe/bob', '/image/42', '/no/such/screen'])(
    'a browser navigation to %s gets index.html, never cached',
    async (p) => {
      const res = await navigate(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(html);
    },
  );

  it.each(['/profile', '/library'])('%s is a screen for a browser and JSON for an API client', async (p) => {
    const page = await navigate(p);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(html);
    const json = await api.get(p, token);
    expect(json.status).toBe(200);
    if (p === '/profile') expect(json.body).toMatchObject({ role: expect.any(String), email: expect.any(String) });
    else expect(json.body).toMatchObject({ images: [], pagination: { currentPage: 1, hasMore: false, totalImages: 0 } });
    const noToken = await api.get(p);
    expect(noToken.status).toBe(401);
  });

  it('serves hashed assets with a year-long immutable cache, other files for an hour', async () => {
    const asset = await fetch(new URL('/assets/app-abc123.js', server.url));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await fetch(new URL('/favicon.svg', server.url));
    expect(icon.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('serves the new index.html after the web app is rebuilt while running', async () => {
    const rebuilt = html.replace('app-abc123', 'app-def456');
    await writeFile(path.join(webDist, 'index.html'), rebuilt);
    const res = await navigate('/gallery-after-rebuild');
    expect(await res.text()).toBe(rebuilt);
    await writeFile(path.join(webDist, 'index.html'), html);
  });

  it('answers unknown API calls with a JSON 404', async () => {
    const res = await api.get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ message: expect.stringContaining('/api/nothing-here') });
    const post = await api.post('/nothing', {});
    expect(post.status).toBe(404);
  });

  it('sends security headers', async () => {
    const res = await navigate('/');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('reports health', async () => {
    const res = await api.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'sqlite' });
  });

  it('publishes an OpenAPI document generated from the contract, with a browsable page', async () => {
    const doc = await api.get<{ openapi: string; paths: Record<string, Record<string, unknown>> }>('/api/docs/json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/signin', '/signup', '/forgot-password', '/reset-password', '/api/profile']));
    const signin = doc.body.paths['/signin']?.['post'] as { requestBody: { content: Record<string, { schema: { required: string[] } }> } };
    expect(signin.requestBody.content['application/json']?.schema.required).toEqual(['email', 'password']);
    const page = await navigate('/api/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/swagger/i);
  });
});

describe('without a built web app', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

  it('tells a browser how to build it instead of failing silently', async () => {
    const res = await fetch(new URL('/', server.url), { headers: { accept: 'text/html' } });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toMatch(/npm start/);
  });
});
