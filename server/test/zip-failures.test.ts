import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testSetups } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { tinyPng, upload } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/**
 * A zip is streamed after its headers (and exact Content-Length) are sent, so an entry that fails
 * while it is written cannot become an error answer. It must still end the response — never leave
 * the download hanging — and never surface as an unhandled error in the server process.
 */
describe.each(testSetups)('zips whose entries fail ($database, $storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  let bob: SignedUpPerson;
  let seed = 7100;

  const uploadPicture = async () => {
    const res = await upload(server.url, bob.token, [{ source: await tinyPng((seed += 1)), name: 'photo.png' }]);
    expect(res.body.results?.[0]?.status).toBe('kept');
    return res.body.results![0]!.imageId!;
  };
  /** The body of a zip of `ids` as the client receives it: its bytes, or the reason it broke off. */
  const zipBody = async (ids: string[]) => {
    const made = await api.post<{ url: string }>('/api/downloads/zip', { ids }, bob.token);
    expect(made.status).toBe(200);
    const res = await fetch(new URL(made.body.url, server.url));
    const promised = Number(res.headers.get('content-length'));
    const body = await res.arrayBuffer().then(
      (bytes) => ({ received: bytes.byteLength }),
      (error: Error) => ({ brokenOff: error.message }),
    );
    return { status: res.status, promised, body };
  };
  const breakMedia = async (imageId: string, change: string) =>
    server.sql(`update media set ${change} where id = (select media_id from images where id = ?)`, [Number(imageId)]);

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { env: { ...s3?.env } });
    api = apiClient(server.url);
    await signUpConfirmed(server, api, { prefix: 'admin' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  it('an original missing from storage ends the download, first or after others; the server keeps serving', { timeout: 20_000 }, async () => {
    const fine = await uploadPicture();
    const missing = await uploadPicture();
    await breakMedia(missing, "original_key = 'originals/gone/missing.png'");
    // After a whole entry the headers are out: the connection closes short of the promised length.
    const after = await zipBody([fine, missing]);
    expect(after.status).toBe(200);
    expect(after.body).toHaveProperty('brokenOff');
    // First, it may fail before the headers go (a 500) or just after (cut short); it never hangs.
    const first = await zipBody([missing, fine]);
    if (first.status === 200) expect(first.body).toHaveProperty('brokenOff');
    else expect(first.status).toBe(500);
    expect((await api.get('/api/health')).status).toBe(200);
  });

  it('an original shorter than recorded ends the download cut short; the server keeps serving', { timeout: 20_000 }, async () => {
    const fine = await uploadPicture();
    const shorter = await uploadPicture();
    await breakMedia(shorter, 'byte_size = byte_size + 10');
    const { status, body } = await zipBody([fine, shorter]);
    expect(status).toBe(200);
    expect(body).toHaveProperty('brokenOff');
    expect((await api.get('/api/health')).status).toBe(200);
  });

  it.runIf(storage === 'local')('an original that fails while read ends the download cut short; the server keeps serving', { timeout: 20_000 }, async () => {
    const fine = await uploadPicture();
    const unreadable = await uploadPicture();
    // A folder where the file was: it exists, so it is opened, and the read fails (EISDIR).
    const [row] = await server.rows<{ original_key: string }>('select original_key from media where id = (select media_id from images where id = ?)', [Number(unreadable)]);
    const file = path.join(server.dataDir, 'media', row!.original_key);
    await rm(file);
    await mkdir(file);
    const { status, body } = await zipBody([fine, unreadable]);
    expect(status).toBe(200);
    expect(body).toHaveProperty('brokenOff');
    expect((await api.get('/api/health')).status).toBe(200);
  });

  it('a zip of intact originals still arrives whole', async () => {
    const { status, promised, body } = await zipBody([await uploadPicture(), await uploadPicture()]);
    expect(status).toBe(200);
    expect(body).toEqual({ received: promised });
  });
});
