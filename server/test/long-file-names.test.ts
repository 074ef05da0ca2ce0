import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testSetups } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { tinyPng, upload } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { unzip } from './support/zips.js';

const EMOJI = '😀'; // two UTF-16 code units: a cut between them leaves half a character

/**
 * Names are cut to a length in UTF-16 code units (255 when stored, 200 in downloads); the cut falls
 * before an emoji it would split, so the name stays valid text in the database, the answer, the
 * zip and the Content-Disposition header.
 */
describe.each(testSetups)('long file names ($database, $storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  let bob: SignedUpPerson;

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

  /** Uploads a picture under `name`; the answered outcome. */
  const uploadAs = async (name: string, seed: number) => {
    const res = await upload(server.url, bob.token, [{ source: await tinyPng(seed), name }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.results![0]!;
  };
  /** The name an image is stored under, read back from the database and through the API. */
  const storedNames = async (id: string) => {
    const [row] = await server.rows<{ file_name: string }>('select file_name from images where id = ?', [Number(id)]);
    const image = await api.get<{ FileName: string }>(`/api/images/${id}`, bob.token);
    return { database: row!.file_name, api: image.body.FileName };
  };
  /** The entry name of the image in a zip of it, and its name as a single download. */
  const downloadNames = async (id: string) => {
    const zipTicket = await api.post<{ url: string }>('/api/downloads/zip', { ids: [id] }, bob.token);
    const zip = await fetch(new URL(zipTicket.body.url, server.url));
    expect(zip.status).toBe(200);
    const [entry] = [...(await unzip(Buffer.from(await zip.arrayBuffer()))).keys()];
    const originalTicket = await api.post<{ url: string; fileName: string }>('/api/downloads/original', { id }, bob.token);
    const original = await fetch(new URL(originalTicket.body.url, server.url));
    expect(original.status).toBe(200);
    await original.arrayBuffer();
    // The last byte can arrive before the server ends the streamed response; closing the server
    // then leaves that keep-alive connection open for Fastify's 72 s keepAliveTimeout. One more
    // call on it is answered only after that response ended, so the server closes at once.
    expect((await api.get('/api/health')).status).toBe(200);
    const header = /filename\*=UTF-8''(.+)$/.exec(original.headers.get('content-disposition') ?? '')?.[1] ?? '';
    return { entry, ticket: originalTicket.body.fileName, header: decodeURIComponent(header) };
  };

  it('a name of 200 emoji is stored as its first 127, not 127½, and downloads as its first 100', async () => {
    const outcome = await uploadAs(`${EMOJI.repeat(200)}.png`, 6101);
    expect(outcome.status).toBe('kept');
    expect(outcome.fileName).toBe(EMOJI.repeat(127));
    expect(await storedNames(outcome.imageId!)).toEqual({ database: EMOJI.repeat(127), api: EMOJI.repeat(127) });
    expect(await downloadNames(outcome.imageId!)).toEqual({ entry: EMOJI.repeat(100), ticket: EMOJI.repeat(100), header: EMOJI.repeat(100) });
  });

  it('a download name that would end in half an emoji ends before it', async () => {
    // 'a' and 127 emoji fill the 255 units stored; at 200 units the cut falls inside the 100th emoji.
    const outcome = await uploadAs(`a${EMOJI.repeat(200)}.png`, 6102);
    expect(outcome.fileName).toBe(`a${EMOJI.repeat(127)}`);
    expect(await downloadNames(outcome.imageId!)).toEqual({ entry: `a${EMOJI.repeat(99)}`, ticket: `a${EMOJI.repeat(99)}`, header: `a${EMOJI.repeat(99)}` });
  });
});
