import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, newPerson } from './support/http.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// Without SMTP_URL, mail is written to DATA_DIR/outbox as .eml files (DECISIONS §1).
describe('mail without SMTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => server?.close());

  it('writes the reset e-mail to the outbox folder with the link', async () => {
    const api = apiClient(server.url);
    const person = newPerson();
    expect((await api.post('/signup', person)).status).toBe(201);
    expect((await api.post('/forgot-password', { email: person.email })).status).toBe(200);
    const outbox = path.join(server.dataDir, 'outbox');
    const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const eml = await readFile(path.join(outbox, files[0]!), 'utf8');
    expect(eml).toMatch(new RegExp(`^To: ${person.email}`, 'm'));
    expect(eml).toMatch(/^Subject: Reset your Photo Library password/m);
    expect(eml.replace(/=\n/g, '')).toMatch(/http:\/\/photos\.test\/reset-password\/[A-Za-z0-9_-]{43}/);
  });
});

describe('mail that cannot be sent', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Nothing listens on port 1: every send fails.
    server = await startTestServer('sqlite', { env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
  });
  afterAll(async () => server?.close());

  it('still gives the usual forgot-password answer, so it reveals nothing about the account', async () => {
    const api = apiClient(server.url);
    const person = newPerson();
    await api.post('/signup', person);
    const known = await api.post('/forgot-password', { email: person.email });
    const unknown = await api.post('/forgot-password', { email: 'nobody@example.com' });
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
  });
});
