import { randomBytes } from 'node:crypto';
import { rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testSetups } from './support/databases.js';
import { apiClient } from './support/http.js';
import { tinyPng } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/**
 * Every error answer of the tus endpoint (`/api/uploads`, `/api/uploads/:id`) is the API's error
 * JSON (`{ message, msg }`, as the one error handler answers), with the status tus clients act on
 * and the protocol's `Tus-Resumable` header — whether tus itself, the route's checks or the app's
 * own metadata check said no.
 */
describe.each(testSetups)('tus error answers on $database ($storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let alice: SignedUpPerson;
  let bob: SignedUpPerson;

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { env: { ...s3?.env } });
    const api = apiClient(server.url);
    await signUpConfirmed(server, api, { prefix: 'admin' });
    alice = await signUpConfirmed(server, api, { prefix: 'alice' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  const TUS = { 'tus-resumable': '1.0.0' };
  const auth = (token: string | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

  const create = (token: string | undefined, headers: Record<string, string>) =>
    fetch(`${server.url}/api/uploads`, { method: 'POST', headers: { ...TUS, ...auth(token), ...headers } });
  const patch = (token: string | undefined, id: string, headers: Record<string, string>, body: Buffer) =>
    fetch(`${server.url}/api/uploads/${id}`, { method: 'PATCH', headers: { ...TUS, ...auth(token), ...headers }, body });
  const bytesAt = (offset: number | string) => ({ 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' });
  const offsetOf = async (token: string, id: string) =>
    (await fetch(`${server.url}/api/uploads/${id}`, { method: 'HEAD', headers: { ...TUS, ...auth(token) } })).headers.get('upload-offset');

  async function newUpload(token: string, size: number): Promise<string> {
    const created = await create(token, { 'upload-length': String(size), 'upload-metadata': `filename ${b64('errors.png')}` });
    expect(created.status).toBe(201);
    return created.headers.get('location')?.split('/').pop() ?? '';
  }

  /** The answer is the API's error JSON with this status, and a tus answer (Tus-Resumable). */
  async function expectError(answer: Response | Promise<Response>, status: number, message: RegExp, label = ''): Promise<Response & { text: string }> {
    const res = await answer;
    const text = await res.text();
    expect(res.status, `${label} ${text}`).toBe(status);
    expect(res.headers.get('content-type'), `${label} ${text}`).toMatch(/^application\/json/);
    expect(res.headers.get('tus-resumable'), label).toBe('1.0.0');
    const body = JSON.parse(text) as { message: string; msg: string };
    expect(body, label).toEqual({ message: expect.stringMatching(message), msg: body.message });
    return Object.assign(res, { text });
  }

  it('refuses a creation with a malformed Upload-Metadata (400), naming the header', async () => {
    for (const metadata of [`filename !!!`, `filename ${b64('a.png')},filename ${b64('b.png')}`]) {
      await expectError(create(alice.token, { 'upload-length': '10', 'upload-metadata': metadata }), 400, /Upload-Metadata/, metadata);
    }
  });

  it('refuses a creation whose sha256 metadata is not a SHA-256 (the app\'s own check), as JSON', async () => {
    await expectError(
      create(alice.token, { 'upload-length': '10', 'upload-metadata': `filename ${b64('a.png')},sha256 ${b64('zz')}` }),
      400,
      /sha256 metadata must be a SHA-256/,
    );
  });

  it('answers a deferred length or a concatenation with a 400 naming what is not supported (not a 5xx)', async () => {
    for (const headers of [{ 'upload-defer-length': '1' }, { 'upload-length': '10', 'upload-defer-length': '1' }] as Record<string, string>[]) {
      await expectError(create(alice.token, headers), 400, /Upload-Defer-Length.*not supported/, JSON.stringify(headers));
    }
    for (const concat of ['partial', 'final;/api/uploads/aaaa /api/uploads/bbbb']) {
      await expectError(create(alice.token, { 'upload-length': '10', 'upload-concat': concat }), 400, /Upload-Concat.*not supported/, concat);
    }
    // Neither was created.
    expect(await server.rows('select id from resumable_uploads')).toEqual([]);
  });

  it('answers a request without Tus-Resumable, or with another version, with 412 and the version it speaks', async () => {
    for (const version of [undefined, '0.2.0']) {
      const res = await fetch(`${server.url}/api/uploads`, {
        method: 'POST',
        headers: { ...auth(alice.token), 'upload-length': '10', ...(version ? { 'tus-resumable': version } : {}) },
      });
      await expectError(res, 412, /Tus-Resumable: 1\.0\.0/, String(version));
      expect(res.headers.get('tus-version')).toBe('1.0.0');
    }
  });

  it('refuses a file over the size limit at creation (413), as JSON', async () => {
    await expectError(create(alice.token, { 'upload-length': String(300 * 1024 * 1024) }), 413, /larger than the 200 MB limit/);
  });

  it('answers a PATCH at the wrong offset with 409, a malformed offset or content type with 400, too many bytes with 413', async () => {
    const file = await tinyPng(94_001);
    const id = await newUpload(alice.token, file.length);
    expect((await patch(alice.token, id, bytesAt(0), file.subarray(0, 10))).status).toBe(204);

    await expectError(patch(alice.token, id, bytesAt(5), file.subarray(5, 15)), 409, /Upload-Offset conflict/);
    for (const offset of ['abc', '-1', '1.5']) {
      await expectError(patch(alice.token, id, bytesAt(offset), file.subarray(10, 20)), 400, /Upload-Offset/, offset);
    }
    await expectError(patch(alice.token, id, { 'content-type': 'application/offset+octet-stream' }, file.subarray(10, 20)), 400, /Upload-Offset/, 'no offset');
    await expectError(
      patch(alice.token, id, { ...bytesAt(10), 'content-type': 'application/json' }, file.subarray(10, 20)),
      400,
      /Content-Type: application\/offset\+octet-stream/,
      'json',
    );
    await expectError(patch(alice.token, id, { 'upload-offset': '10' }, file.subarray(10, 20)), 400, /Content-Type: application\/offset\+octet-stream/, 'none');
    await expectError(patch(alice.token, id, bytesAt(10), Buffer.concat([file.subarray(10), Buffer.alloc(100)])), 413, /Upload-Length/);

    // None of them wrote a byte; the upload completes from where it was.
    expect(await offsetOf(alice.token, id)).toBe('10');
    const rest = await patch(alice.token, id, bytesAt(10), file.subarray(10));
    expect(rest.status).toBe(200);
    expect(await rest.json()).toMatchObject({ fileName: 'errors.png', status: 'kept' });
  });

  it('answers 401 without a valid token and 404 for an upload that is not the caller\'s, as JSON', async () => {
    const file = await tinyPng(94_002);
    const id = await newUpload(alice.token, file.length);
    for (const token of [undefined, 'not-a-token']) {
      await expectError(create(token, { 'upload-length': '10' }), 401, /sign in/i, `POST ${token}`);
      await expectError(patch(token, id, bytesAt(0), file), 401, /sign in/i, `PATCH ${token}`);
      await expectError(fetch(`${server.url}/api/uploads/${id}`, { method: 'DELETE', headers: { ...TUS, ...auth(token) } }), 401, /sign in/i);
      const head = await fetch(`${server.url}/api/uploads/${id}`, { method: 'HEAD', headers: { ...TUS, ...auth(token) } });
      expect(head.status).toBe(401);
      expect(head.headers.get('tus-resumable')).toBe('1.0.0');
    }
    await expectError(patch(bob.token, id, bytesAt(0), file), 404, /no such upload of yours/, 'PATCH');
    await expectError(fetch(`${server.url}/api/uploads/${id}`, { method: 'DELETE', headers: { ...TUS, ...auth(bob.token) } }), 404, /no such upload/, 'DELETE');
    await expectError(patch(alice.token, randomBytes(16).toString('hex'), bytesAt(0), file), 404, /no such upload/, 'unknown');
    // tus's own 404: a URL whose last segment is not the id the route checked.
    const own = await newUpload(bob.token, file.length);
    await expectError(patch(bob.token, `${own}?x=/${id}`, bytesAt(0), file), 404, /no such upload/, 'smuggled');
    expect(await offsetOf(alice.token, id)).toBe('0');
  });

  // The store's files are at hand only with local storage.
  it.skipIf(storage !== 'local')('answers an upload whose bytes are gone with 410, and a failing store with a 500 that tells nothing of the server', async () => {
    const file = await tinyPng(94_003);
    const gone = await newUpload(alice.token, file.length);
    await rm(path.join(server.dataDir, 'tus', gone));
    await expectError(patch(alice.token, gone, bytesAt(0), file), 410, /start it again/);

    const broken = await newUpload(alice.token, file.length);
    const bytes = path.join(server.dataDir, 'tus', broken);
    await rm(bytes);
    await symlink(bytes, bytes); // reading it fails (ELOOP), as a failing disk would
    const failed = await expectError(patch(alice.token, broken, bytesAt(0), file), 500, /^Something went wrong on our side/);
    expect(failed.text).not.toContain(server.dataDir);
  });
});

describe("tus's lock timeout", () => {
  it('is a 423 that tus clients retry, with Retry-After, not a 500', async () => {
    const { ERRORS } = await import('@tus/server');
    const { tusErrorWords } = await import('../src/resumable-uploads/tus-endpoint.js');
    const words = tusErrorWords(ERRORS, 200 * 1048576)(ERRORS.ERR_LOCK_TIMEOUT.status_code, ERRORS.ERR_LOCK_TIMEOUT.body);
    expect(words).toEqual({ status: 423, message: 'Another request for this upload is still running; try again in a moment.', headers: { 'Retry-After': '1' } });
  });
});
