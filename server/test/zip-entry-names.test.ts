import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testSetups } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { tinyPng, upload } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { unzip } from './support/zips.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Whatever name a photo was stored under, a zip with it is made: yazl throws on entry names it
 * takes for paths (a drive letter, a leading `/`, a `..` folder, empty, over 64 KB), and one such
 * photo once made every zip that included it — the whole library's, a share-all page's — answer 500.
 */
describe.each(testSetups)('zip entry names ($database, $storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  let admin: SignedUpPerson;
  let bob: SignedUpPerson;
  let seed = 5100;

  /** Uploads a new picture under `name` through POST /bulk-upload; its id and bytes. */
  const uploadAs = async (person: SignedUpPerson, name: string) => {
    const bytes = await tinyPng((seed += 1));
    const res = await upload(server.url, person.token, [{ source: bytes, name }]);
    expect(res.body.results?.[0]?.status, JSON.stringify(res.body)).toBe('kept');
    return { id: res.body.results![0]!.imageId!, bytes };
  };
  const fetchBytes = async (url: string) => {
    const res = await fetch(new URL(url, server.url));
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const zipOf = async (ids: string[], token: string) => {
    const made = await api.post<{ url: string }>('/api/downloads/zip', { ids }, token);
    expect(made.status).toBe(200);
    return fetchBytes(made.body.url);
  };

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { env: { ...s3?.env } });
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  it('zips a photo uploaded as C:evil.png as C_evil.png, beside the rest of the selection', async () => {
    const evil = await uploadAs(bob, 'C:evil.png');
    const other = await uploadAs(bob, 'Z:x.png');
    const fine = await uploadAs(bob, 'fine.png');
    const { status, bytes } = await zipOf([evil.id, other.id, fine.id], bob.token);
    expect(status).toBe(200);
    const entries = await unzip(bytes);
    expect([...entries.keys()]).toEqual(['C_evil.png', 'Z_x.png', 'fine.png']);
    expect(sha256(entries.get('C_evil.png')!)).toBe(sha256(evil.bytes));
    expect(sha256(entries.get('fine.png')!)).toBe(sha256(fine.bytes));
  });

  it("a share-all page's Download all and the admin's whole-library zip still work with such a photo", async () => {
    const evil = await uploadAs(bob, 'D:holiday.png');
    const shared = await api.post<{ link: string }>('/api/share-all', { accessTo: [newPerson('grandma').email] }, admin.token);
    expect(shared.status).toBe(200);
    const link = /\/share-all\/([A-Za-z0-9_-]+)$/.exec(shared.body.link)![1]!;
    const all = await fetchBytes(`/shared-images/${link}/download`);
    expect(all.status).toBe(200);
    expect(sha256((await unzip(all.bytes)).get('D_holiday.png')!)).toBe(sha256(evil.bytes));

    const library = await api.get<{ images: { _id: string }[] }>('/api/gridimages', admin.token);
    const whole = await zipOf(library.body.images.map((image) => image._id), admin.token);
    expect(whole.status).toBe(200);
    expect((await unzip(whole.bytes)).has('D_holiday.png')).toBe(true);
  });

  it('names stored before any cleaning (paths, .., control characters, blank, huge) each make a valid entry', async () => {
    // Uploads clean names on the way in; rows written before that (or by hand) may hold anything.
    const stored: [string, (id: string) => string][] = [
      ['C:\\Windows\\win.png', () => 'C__Windows_win.png'],
      ['/etc/passwd.png', () => '_etc_passwd.png'],
      ['../../up.png', () => '_.._up.png'],
      ['..', (id) => `image-${id}`],
      [' .. ', (id) => `image-${id}`],
      ['folder/', () => 'folder_'],
      ['tab\there\u0007.png', () => 'tab_here_.png'],
      ['', (id) => `image-${id}`],
      ['   ', (id) => `image-${id}`],
      ['x'.repeat(70_000), () => 'x'.repeat(200)],
    ];
    const pictures = [];
    for (const [name, expected] of stored) {
      const picture = await uploadAs(bob, 'placeholder.png');
      await server.sql('update images set file_name = ? where id = ?', [name, Number(picture.id)]);
      pictures.push({ ...picture, expected: expected(picture.id) });
    }
    const { status, bytes } = await zipOf(pictures.map((p) => p.id), bob.token);
    expect(status).toBe(200);
    const entries = await unzip(bytes);
    expect([...entries.keys()]).toEqual(pictures.map((p) => p.expected));
    for (const picture of pictures) expect(sha256(entries.get(picture.expected)!)).toBe(sha256(picture.bytes));
  });
});
