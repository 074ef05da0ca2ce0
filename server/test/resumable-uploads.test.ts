import { createHash, randomBytes } from 'node:crypto';
import { appendFile, readdir, readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Image, UploadOutcome } from '@photo/contract';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testSetups } from './support/databases.js';
import { eventually } from './support/eventually.js';
import { deadOwnerToken } from './support/owner-tokens.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { readManifest, TESTDATA, tinyPng, upload, type ManifestEntry } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/**
 * Resumable uploads (issue 15, decision 0010) over real HTTP, on SQLite with local files and on
 * PostgreSQL with S3 (s3rver, taught the multipart calls @tus/s3-store needs: see the end).
 */
describe.each(testSetups)('resumable uploads on $database ($storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  let alice: SignedUpPerson;
  let bob: SignedUpPerson;

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { env: { ...s3?.env } });
    api = apiClient(server.url);
    await signUpConfirmed(server, api, { prefix: 'admin' });
    alice = await signUpConfirmed(server, api, { prefix: 'alice' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  const tus = () => tusClient(server.url);

  it('answers OPTIONS with the protocol and its extensions, without a token', async () => {
    const res = await fetch(`${server.url}/api/uploads`, { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('tus-version')).toBe('1.0.0');
    expect(res.headers.get('tus-extension')?.split(',')).toEqual(['creation', 'creation-with-upload', 'termination', 'expiration']);
    expect(res.headers.get('tus-max-size')).toBe(String(200 * 1024 * 1024));
  });

  it('lists the tus endpoint in the OpenAPI document, with the protocol\'s methods and headers', async () => {
    const doc = (await api.get<{ paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, { headers?: object }> }>> }>('/api/docs/json')).body;
    expect(Object.keys(doc.paths['/api/uploads'] ?? {}).sort()).toEqual(['options', 'post']);
    expect(Object.keys(doc.paths['/api/uploads/{id}'] ?? {}).sort()).toEqual(['delete', 'head', 'parameters', 'patch']);
    const headerNames = (op?: { parameters?: { name: string; in: string }[] }) => (op?.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    expect(headerNames(doc.paths['/api/uploads']?.['post'])).toEqual(expect.arrayContaining(['Tus-Resumable', 'Upload-Length', 'Upload-Metadata']));
    expect(headerNames(doc.paths['/api/uploads/{id}']?.['patch'])).toEqual(expect.arrayContaining(['Tus-Resumable', 'Upload-Offset', 'Content-Type']));
    expect(Object.keys(doc.paths['/api/uploads']?.['post']?.responses['201']?.headers ?? {})).toContain('Location');
    expect(doc.paths['/api/uploads/check']?.['post']).toBeDefined();
    expect(doc.paths['/api/uploads/{id}/outcome']?.['get']).toBeDefined();
  });

  it('resumes after a dropped connection from the exact offset the server has', async () => {
    const file = await readFile(path.join(TESTDATA, 'large/canon-eos-5d-mark-iii-22mp.jpg'));
    const created = await tus().create(alice.token, file.length, { filename: 'resumed.jpg', filetype: 'image/jpeg' });
    expect(created.status).toBe(201);
    expect(created.location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
    expect(created.headers.get('upload-expires')).toBeTruthy();
    const id = created.id;

    // A third of the file, then the connection is cut mid-request.
    const sent = 777_777;
    await tus().patchThenDrop(alice.token, id, 0, file, sent, async () => {
      // The file store writes what a stalled body sent within ~100 ms (coalescing-file-store.ts).
      if (storage === 'local') await eventually(async () => expect((await stat(path.join(server.dataDir, 'tus', id))).size).toBe(sent), 5000, 20);
      else await new Promise((resolve) => setTimeout(resolve, 500));
    });
    let head: Response | undefined;
    await eventually(async () => {
      head = await tus().head(alice.token, id);
      expect(head.status).toBe(200);
    }, 10_000);
    if (!head) throw new Error('no HEAD answer');
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(sent);
    expect(head.headers.get('upload-length')).toBe(String(file.length));
    expect(head.headers.get('cache-control')).toBe('no-store');

    // The same bytes again at a stale offset are refused; from the server's offset they complete the file.
    expect((await tus().patch(alice.token, id, 0, file.subarray(0, 10))).status).toBe(409);
    const rest = await tus().patch(alice.token, id, offset, file.subarray(offset));
    expect(rest.status).toBe(200);
    expect(rest.headers.get('upload-offset')).toBe(String(file.length));
    expect(rest.headers.get('upload-outcome')).toBe('kept');
    const outcome = (await rest.json()) as UploadOutcome;
    expect(outcome).toEqual({ fileName: 'resumed.jpg', status: 'kept', imageId: expect.any(String) });
    expect(rest.headers.get('upload-image-id')).toBe(outcome.imageId);

    // What was stored is exactly the file: its content hash, and its size.
    const [media] = await server.rows<{ content_hash: string; byte_size: number }>(
      'select media.content_hash, media.byte_size from images join media on media.id = images.media_id where images.id = ?',
      [Number(outcome.imageId)],
    );
    expect(media?.content_hash).toBe(sha256(file));
    expect(Number(media?.byte_size)).toBe(file.length);
    const image = await api.get<Image>(`/api/images/${outcome.imageId}`, alice.token);
    expect(image.status).toBe(200);
    expect(image.body.FileName).toBe('resumed.jpg');

    // Nothing of the upload's bytes is left behind (they go once the answer is out).
    await eventually(async () => expect(await leftoverBytes(id)).toEqual([]));
  });

  it('answers a client that lost the final answer: HEAD, a repeated last PATCH and the outcome call', async () => {
    const file = await tinyPng(91_001);
    const { id, outcome } = await tus().uploadWhole(alice.token, file, { filename: 'lost-answer.png' });
    expect(outcome.status).toBe('kept');
    const head = await tus().head(alice.token, id);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(file.length));
    expect(head.headers.get('upload-length')).toBe(String(file.length));
    expect(head.headers.get('upload-outcome')).toBe('kept');
    expect(head.headers.get('upload-image-id')).toBe(outcome.imageId);
    const again = await tus().patch(alice.token, id, file.length, Buffer.alloc(0));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(outcome);
    expect((await tus().patch(alice.token, id, 3, Buffer.alloc(0))).status).toBe(409);
    const asked = await api.get<UploadOutcome>(`/api/uploads/${id}/outcome`, alice.token);
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual(outcome);
  });

  it('says an unfinished upload is not complete, and finishes one whose last byte arrived unanswered', async () => {
    const file = await tinyPng(91_002);
    const { id } = await tus().create(alice.token, file.length, { filename: 'half.png' });
    expect((await tus().patch(alice.token, id, 0, file.subarray(0, 10))).status).toBe(204);
    const early = await api.get(`/api/uploads/${id}/outcome`, alice.token);
    expect(early.status).toBe(409);
    expect(early.headers.get('retry-after')).toBeNull();
    expect(early.body['message']).toMatch(/10 of [\d,]+ bytes received/);
    if (storage !== 'local') return;
    // The rest reaches the store but the process died before it took the file up (written behind tus's back here).
    await appendFile(path.join(server.dataDir, 'tus', id), file.subarray(10));
    const asked = await api.get(`/api/uploads/${id}/outcome`, alice.token);
    expect(asked.status).toBe(409);
    expect(asked.headers.get('retry-after')).toBe('2');
    await eventually(async () => {
      const res = await api.get<UploadOutcome>(`/api/uploads/${id}/outcome`, alice.token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ fileName: 'half.png', status: 'kept', imageId: expect.any(String) });
    });
  });

  it('answers someone else\'s upload id with 404 for HEAD, PATCH, DELETE and the outcome, and leaves it alone', async () => {
    const file = await tinyPng(91_003);
    const { id } = await tus().create(alice.token, file.length, { filename: 'mine.png' });
    expect((await tus().patch(alice.token, id, 0, file.subarray(0, 20))).status).toBe(204);
    expect((await tus().head(bob.token, id)).status).toBe(404);
    expect((await tus().patch(bob.token, id, 20, file.subarray(20))).status).toBe(404);
    expect((await tus().remove(bob.token, id)).status).toBe(404);
    expect((await api.get(`/api/uploads/${id}/outcome`, bob.token)).status).toBe(404);
    // Unknown ids look the same.
    const unknown = randomBytes(16).toString('hex');
    expect((await tus().head(bob.token, unknown)).status).toBe(404);
    expect((await api.get(`/api/uploads/${unknown}/outcome`, bob.token)).status).toBe(404);
    // Alice's upload is untouched and completes.
    expect((await tus().head(alice.token, id)).headers.get('upload-offset')).toBe('20');
    const rest = await tus().patch(alice.token, id, 20, file.subarray(20));
    expect(rest.status).toBe(200);
    // A done upload is still not Bob's.
    expect((await tus().head(bob.token, id)).status).toBe(404);
  });

  it('acts only on the upload the URL\'s path names: another upload\'s id smuggled into the query is a 404', async () => {
    const file = await tinyPng(91_012);
    const { id: victim } = await tus().create(alice.token, file.length, { filename: 'holiday.png' });
    expect((await tus().patch(alice.token, victim, 0, file.subarray(0, 20))).status).toBe(204);
    const { id: own } = await tus().create(bob.token, file.length, { filename: 'bob.png' });
    // tus reads an upload id from the last segment of the whole URL, query included.
    for (const smuggled of [`${own}?x=/${victim}`, `${own}?/${victim}`, `${own}?id=${victim}`]) {
      const head = await tus().head(bob.token, smuggled);
      expect(head.status, smuggled).toBe(404);
      expect(head.headers.get('upload-metadata')).toBeNull();
      expect((await tus().patch(bob.token, smuggled, 20, file.subarray(20))).status, smuggled).toBe(404);
    }
    // Neither upload was touched: Alice's still has her 20 bytes, Bob's none.
    expect((await tus().head(alice.token, victim)).headers.get('upload-offset')).toBe('20');
    expect((await tus().head(bob.token, own)).headers.get('upload-offset')).toBe('0');
    expect((await tus().patch(alice.token, victim, 20, file.subarray(20))).status).toBe(200);
  });

  it('lets an account that has not confirmed its address upload, as multipart does', async () => {
    const signedUp = await api.post<{ token: string }>('/signup', newPerson('unconfirmed'));
    expect(signedUp.status).toBe(201);
    const { outcome } = await tus().uploadWhole(signedUp.body.token, await tinyPng(91_011), { filename: 'early.png' });
    expect(outcome.status).toBe('kept');
  });

  it('answers 401 without a valid token, on every tus method and both calls', async () => {
    const file = await tinyPng(91_004);
    const { id } = await tus().create(alice.token, file.length, { filename: 'auth.png' });
    for (const token of [undefined, 'not-a-token']) {
      expect((await tus().create(token, 10, { filename: 'x.png' })).status).toBe(401);
      expect((await tus().head(token, id)).status).toBe(401);
      expect((await tus().patch(token, id, 0, file)).status).toBe(401);
      expect((await tus().remove(token, id)).status).toBe(401);
      expect((await api.request('POST', '/api/uploads/check', { body: { files: [{ sha256: sha256(file), size: 1 }] }, ...(token ? { token } : {}) })).status).toBe(401);
      expect((await api.request('GET', `/api/uploads/${id}/outcome`, token ? { token } : {})).status).toBe(401);
    }
    expect((await tus().head(alice.token, id)).headers.get('upload-offset')).toBe('0');
  });

  it('terminates an upload: its bytes and its id are gone', async () => {
    const file = await tinyPng(91_005);
    const { id } = await tus().create(alice.token, file.length, { filename: 'abandoned.png' });
    expect((await tus().patch(alice.token, id, 0, file.subarray(0, 30))).status).toBe(204);
    expect((await tus().remove(alice.token, id)).status).toBe(204);
    expect((await tus().head(alice.token, id)).status).toBe(404);
    expect(await leftoverBytes(id)).toEqual([]);
  });

  it('refuses a file whose declared SHA-256 does not match what arrived, and keeps one that matches', async () => {
    const file = await tinyPng(91_006);
    const wrong = await tus().uploadWhole(alice.token, file, { filename: 'wrong.png', sha256: sha256(Buffer.from('something else')) });
    expect(wrong.outcome).toEqual({ fileName: 'wrong.png', status: 'refused', reason: expect.stringMatching(/SHA-256 does not match/) });
    await eventually(async () => expect(await leftoverBytes(wrong.id)).toEqual([]));
    const right = await tus().uploadWhole(alice.token, file, { filename: 'right.png', sha256: sha256(file).toUpperCase() });
    expect(right.outcome).toMatchObject({ status: 'kept' });
    // Not a SHA-256 at all: refused at creation.
    expect((await tus().create(alice.token, file.length, { filename: 'bad.png', sha256: 'abc' })).status).toBe(400);
  });

  it('uses the lastModified metadata as the date of a photo without one of its own', async () => {
    const lastModified = Date.UTC(2011, 4, 6, 7, 8, 9);
    const { outcome } = await tus().uploadWhole(alice.token, await tinyPng(91_007), { filename: 'dated.png', lastModified: String(lastModified) });
    const image = await api.get<Image>(`/api/images/${outcome.imageId}`, alice.token);
    expect(image.body).toMatchObject({ dateSource: 'file', sortedAt: new Date(lastModified).toISOString() });
  });

  it('reports only the caller\'s own contents in the check, not the Trash, and never others\'', async () => {
    const mine = await tinyPng(91_008);
    const theirs = await tinyPng(91_009);
    const never = await tinyPng(91_010);
    const { outcome } = await tus().uploadWhole(alice.token, mine, { filename: 'mine.png' });
    await tus().uploadWhole(bob.token, theirs, { filename: 'theirs.png' });
    const files = [mine, theirs, never].map((f) => ({ sha256: sha256(f), size: f.length }));
    const check = (token: string) => api.post<{ known: { sha256: string; imageId: string }[] }>('/api/uploads/check', { files }, token);
    expect((await check(alice.token)).body).toEqual({ known: [{ sha256: sha256(mine), imageId: outcome.imageId }] });
    expect((await check(bob.token)).body).toEqual({ known: [{ sha256: sha256(theirs), imageId: expect.any(String) }] });
    // The same hash with another size is another file.
    expect((await api.post('/api/uploads/check', { files: [{ sha256: sha256(mine), size: mine.length + 1 }] }, alice.token)).body).toEqual({ known: [] });
    // In the Trash it is not in the library: sending it again brings it back (as a multipart re-upload does).
    expect((await api.post('/api/deleteImages', { imageIds: [outcome.imageId] }, alice.token)).status).toBe(200);
    expect((await check(alice.token)).body).toEqual({ known: [] });
    const again = await tus().uploadWhole(alice.token, mine, { filename: 'mine.png' });
    expect(again.outcome).toEqual({ fileName: 'mine.png', status: 'duplicate', imageId: outcome.imageId });
    expect((await check(alice.token)).body.known).toHaveLength(1);
    // Bounded and validated like every list input.
    expect((await api.post('/api/uploads/check', { files: [{ sha256: 'xyz', size: 1 }] }, alice.token)).status).toBe(400);
    const tooMany = Array.from({ length: 1001 }, () => ({ sha256: sha256(mine), size: 1 }));
    expect((await api.post('/api/uploads/check', { files: tooMany }, alice.token)).status).toBe(400);
  });

  it('ingests every test photo exactly as POST /bulk-upload does: same outcome, same reason', async () => {
    const manifest = await readManifest();
    const multipartPerson = await signUpConfirmed(server, api, { prefix: 'multipart' });
    const tusPerson = await signUpConfirmed(server, api, { prefix: 'tus' });
    const multipart = await upload(
      server.url,
      multipartPerson.token,
      manifest.map((entry) => ({ source: path.join(TESTDATA, entry.file), name: path.basename(entry.file) })),
    );
    expect(multipart.status).toBe(200);
    const expected = multipart.body.results ?? [];
    expect(expected).toHaveLength(manifest.length);

    // Four at a time, as a client with parallel uploads would; one person's finished files share the ingest places.
    const outcomes: UploadOutcome[] = [];
    const queue = [...manifest.entries()];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          const [index, entry] = next as [number, ManifestEntry];
          const bytes = await readFile(path.join(TESTDATA, entry.file));
          outcomes[index] = (await tus().uploadWhole(tusPerson.token, bytes, { filename: path.basename(entry.file) })).outcome;
        }
      }),
    );
    for (const [index, entry] of manifest.entries()) {
      const want = expected[index];
      const got = outcomes[index];
      // libvips keeps one error buffer for all its threads: when two decodes fail at once, the
      // detail after "could not be decoded:" may come out as "Unknown error." for one of them.
      const kind = (reason: string | undefined) => (reason?.includes('could not be decoded') ? reason.split(':')[0] : reason);
      expect({ fileName: got?.fileName, status: got?.status, reason: kind(got?.reason) }, entry.file).toEqual({
        fileName: want?.fileName,
        status: want?.status,
        reason: kind(want?.reason),
      });
      if (entry.expectDecodable) expect(got?.status, entry.file).toBe('kept');
      else expect(got?.status, entry.file).toBe('refused');
    }
    // Their galleries hold the same pictures.
    const count = async (token: string) => (await api.get<{ pagination: { totalImages: number } }>('/api/gridimages?page=1&limit=10', token)).body.pagination.totalImages;
    expect(await count(tusPerson.token)).toBe(await count(multipartPerson.token));
  }, 180_000);

  async function leftoverBytes(id: string): Promise<string[]> {
    if (s3) return (await s3.listKeys()).filter((key) => key.startsWith(`tus/${id}`));
    return (await readdir(path.join(server.dataDir, 'tus'))).filter((name) => name.startsWith(id));
  }
});

describe.each(testSetups)('limits and expiry of resumable uploads on $database ($storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  let person: SignedUpPerson;
  // 1.8 seconds: unfinished uploads are swept about every second.
  const EXPIRY_HOURS = 0.0005;

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, {
      env: { ...s3?.env, TUS_EXPIRY_HOURS: String(EXPIRY_HOURS), MAX_UPLOAD_MB: '2', TUS_MAX_UNFINISHED_MB: '3' },
    });
    api = apiClient(server.url);
    await signUpConfirmed(server, api, { prefix: 'admin' });
    person = await signUpConfirmed(server, api, { prefix: 'limits' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  const tus = () => tusClient(server.url);
  const MB = 1024 * 1024;

  it('refuses a file over MAX_UPLOAD_MB at creation, and unfinished bytes over TUS_MAX_UNFINISHED_MB', async () => {
    const big = await tus().create(person.token, 2 * MB + 1, { filename: 'big.jpg' });
    expect(big.status).toBe(413);
    expect(await big.text()).toMatch(/larger than the 2 MB limit/);
    const first = await tus().create(person.token, 2 * MB, { filename: 'a.jpg' });
    expect(first.status).toBe(201);
    const second = await tus().create(person.token, 1.5 * MB, { filename: 'b.jpg' });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBeTruthy();
    // Terminating one makes room again.
    expect((await tus().remove(person.token, first.id)).status).toBe(204);
    const third = await tus().create(person.token, 1.5 * MB, { filename: 'c.jpg' });
    expect(third.status).toBe(201);
    expect((await tus().remove(person.token, third.id)).status).toBe(204);
    // Deferred lengths are not offered: the client's choice, so a 400 naming it (tus-error-answers.test.ts).
    const deferred = await fetch(`${server.url}/api/uploads`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-defer-length': '1', authorization: `Bearer ${person.token}` },
    });
    expect(deferred.status).toBe(400);
    expect(((await deferred.json()) as { message: string }).message).toMatch(/Upload-Defer-Length is not supported/);
  });

  it('removes an abandoned upload once it expired: its bytes, its row and its id', async () => {
    const file = await tinyPng(92_001);
    const { id } = await tus().create(person.token, file.length, { filename: 'forgotten.png' });
    expect((await tus().patch(person.token, id, 0, file.subarray(0, 40))).status).toBe(204);
    expect(await leftover(id)).not.toEqual([]);
    await eventually(async () => {
      expect(await server.rows('select id from resumable_uploads where id = ?', [id])).toEqual([]);
      expect(await leftover(id)).toEqual([]);
    }, 15_000, 250);
    expect((await tus().head(person.token, id)).status).toBe(404);
    // It counts toward nothing: a new upload of the whole limit is taken.
    expect((await tus().create(person.token, 2 * MB, { filename: 'room.jpg' })).status).toBe(201);
  });

  async function leftover(id: string): Promise<string[]> {
    if (s3) return (await s3.listKeys()).filter((key) => key.startsWith(`tus/${id}`));
    return (await readdir(path.join(server.dataDir, 'tus'))).filter((name) => name.startsWith(id));
  }
});

describe('a finished upload whose process died before it was taken up (sqlite, local storage)', () => {
  it('is finished by the next start', async () => {
    const server = await startTestServer('sqlite');
    try {
      const api = apiClient(server.url);
      const person = await signUpConfirmed(server, api, { prefix: 'crash' });
      const file = await tinyPng(93_001);
      const { id } = await tusClient(server.url).create(person.token, file.length, { filename: 'crash.png' });
      expect((await tusClient(server.url).patch(person.token, id, 0, file.subarray(0, 50))).status).toBe(204);
      // The last bytes arrived and a process (now dead) claimed the file, then died before the ingest.
      await appendFile(path.join(server.dataDir, 'tus', id), file.subarray(50));
      await server.sql("update resumable_uploads set status = 'finishing', claimed_by = ?, claimed_at = ? where id = ?", [
        deadOwnerToken(),
        new Date().toISOString(),
        id,
      ]);
      await server.restart();
      await eventually(async () => {
        const res = await apiClient(server.url).get<UploadOutcome>(`/api/uploads/${id}/outcome`, person.token);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ fileName: 'crash.png', status: 'kept' });
      });
    } finally {
      await server.close();
    }
  });
});

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The tus requests a client sends, over fetch (and node:http for a connection cut mid-body). */
function tusClient(baseUrl: string) {
  const headers = (token: string | undefined, more: Record<string, string> = {}) => ({
    'tus-resumable': '1.0.0',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...more,
  });
  const url = (id: string) => `${baseUrl}/api/uploads/${id}`;
  const patch = (token: string | undefined, id: string, offset: number, body: Buffer) =>
    fetch(url(id), {
      method: 'PATCH',
      headers: headers(token, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }),
      body,
    });
  const client = {
    async create(token: string | undefined, size: number, metadata: Record<string, string>) {
      const res = await fetch(`${baseUrl}/api/uploads`, {
        method: 'POST',
        headers: headers(token, { 'upload-length': String(size), 'upload-metadata': encodeMetadata(metadata) }),
      });
      const location = res.headers.get('location') ?? '';
      return Object.assign(res, { location, id: location.split('/').pop() ?? '' });
    },
    patch,
    head: (token: string | undefined, id: string) => fetch(url(id), { method: 'HEAD', headers: headers(token) }),
    remove: (token: string | undefined, id: string) => fetch(url(id), { method: 'DELETE', headers: headers(token) }),
    /** Creates an upload and sends the whole file in one PATCH; the outcome comes with the last byte. */
    async uploadWhole(token: string, file: Buffer, metadata: Record<string, string>): Promise<{ id: string; outcome: UploadOutcome }> {
      const created = await client.create(token, file.length, metadata);
      expect(created.status, await created.clone().text()).toBe(201);
      // An empty file is finished by its creation, which carries the outcome.
      const answer = file.length === 0 ? created : await patch(token, created.id, 0, file);
      expect([200, 201]).toContain(answer.status);
      return { id: created.id, outcome: (await answer.json()) as UploadOutcome };
    },
    /** Sends the first `sendBytes` of a PATCH of `file` from `offset`, waits for `whenSent`, then cuts the connection. */
    patchThenDrop(token: string, id: string, offset: number, file: Buffer, sendBytes: number, whenSent: () => Promise<void>): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        const req = http.request(url(id), {
          method: 'PATCH',
          headers: headers(token, {
            'upload-offset': String(offset),
            'content-type': 'application/offset+octet-stream',
            'content-length': String(file.length - offset),
          }),
        });
        req.on('error', () => undefined);
        req.on('response', (res) => reject(new Error(`the PATCH was answered (${res.statusCode}) before it was cut`)));
        req.write(file.subarray(offset, offset + sendBytes), () => {
          whenSent().then(() => {
            req.destroy();
            resolve();
          }, reject);
        });
      });
    },
  };
  return client;
}

function encodeMetadata(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');
}
