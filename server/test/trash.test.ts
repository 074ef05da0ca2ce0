import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Image, TrashedImage } from '@photo/contract';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testDatabases, testSetups } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { listFiles, tinyPng, upload } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { ManualClock, startTestServer, type TestServer } from './support/test-server.js';
import { eventually } from './support/eventually.js';

interface GridPage {
  images: Image[];
  pagination: { currentPage: number; hasMore: boolean; totalImages: number };
}
interface TrashPage {
  images: TrashedImage[];
  pagination: { totalImages: number };
  trashDays: number;
}

const DAY_MS = 86_400_000;

describe.each(testSetups)('the Trash on $database ($storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  const clock = new ManualClock();
  let admin: SignedUpPerson;
  let alice: SignedUpPerson;
  let bob: SignedUpPerson;
  let seed = 0;

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { clock, env: { ...s3?.env } });
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    alice = await signUpConfirmed(server, api, { prefix: 'alice' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  async function uploadBytes(person: SignedUpPerson, bytes: Buffer, name = `t-${seed}.png`) {
    const res = await upload(server.url, person.token, [{ source: bytes, name }]);
    expect(res.status).toBe(200);
    const [result] = res.body.results ?? [];
    expect(result?.status, JSON.stringify(result)).not.toBe('refused');
    return { id: result?.imageId ?? '', status: result?.status };
  }
  async function uploadNew(person: SignedUpPerson): Promise<string> {
    seed += 1;
    return (await uploadBytes(person, await tinyPng(4000 + seed * 7))).id;
  }
  const page = async (person: SignedUpPerson) => (await api.get<GridPage>('/api/gridimages?page=1&limit=50', person.token)).body;
  const idsOf = async (person: SignedUpPerson) => (await page(person)).images.map((image) => image._id);
  const trashOf = async (person: SignedUpPerson) => (await api.get<TrashPage>('/api/trash', person.token)).body;
  const status = async (url: string | null | undefined) => (await fetch(new URL(url ?? '/nothing', server.url))).status;
  /** What the storage holds: files under the media folder, or the bucket's objects on S3. */
  const mediaFiles = () => (s3 ? s3.listKeys() : listFiles(path.join(server.dataDir, 'media')));
  const filesOf = async (bytes: Buffer) => {
    const hash = createHash('sha256').update(bytes).digest('hex');
    return (await mediaFiles()).filter((file) => file.includes(hash));
  };

  it('takes a deleted photo out of every list, search, share, tag list and URL, for everyone, and gives it back', async () => {
    const [older, photo, newer] = [await uploadNew(alice), await uploadNew(alice), await uploadNew(alice)];
    expect((await api.post(`/images/${photo}/addTag`, { tag: 'trashtest' }, alice.token)).status).toBe(200);
    expect((await api.post(`/images/${photo}/like`, { liked: true }, alice.token)).status).toBe(200);
    expect((await api.post('/inPhoto', { imageId: photo }, alice.token)).status).toBe(200);
    expect((await api.post('/api/share-restricted', { imageIds: [photo], emails: [bob.email] }, alice.token)).status).toBe(200);

    // Everyone reads (and so caches) their pages and the photo's URLs first.
    const everyone = [alice, bob, admin];
    const urls = new Map<SignedUpPerson, Image>();
    for (const person of everyone) {
      const listed = (await page(person)).images.find((image) => image._id === photo);
      expect(listed, 'listed before the delete').toBeDefined();
      if (listed) urls.set(person, listed);
      expect(await status(listed?.thumbnailURL)).toBe(200);
    }
    const totals = new Map(await Promise.all(everyone.map(async (p) => [p, (await page(p)).pagination.totalImages] as const)));
    expect((await api.get<{ tags: string[] }>('/exisiting-tag', admin.token)).body.tags).toContain('trashtest');

    expect((await api.post('/api/deleteImages', { imageIds: [photo] }, alice.token)).body).toEqual({ message: 'Image deleted successfully.' });

    for (const person of everyone) {
      const after = await page(person);
      expect(after.images.map((image) => image._id)).not.toContain(photo);
      expect(after.pagination.totalImages).toBe((totals.get(person) ?? 0) - 1);
      expect((await api.get(`/api/images/${photo}`, person.token)).status).toBe(404);
      expect((await api.get(`/api/images/${photo}/neighbours`, person.token)).status).toBe(404);
      expect(await status(urls.get(person)?.thumbnailURL)).toBe(404);
      expect(await status(urls.get(person)?.trimmedURL)).toBe(404);
      expect((await api.get<{ images: Image[] }>('/search?query=trashtest', person.token)).body.images).toEqual([]);
      expect((await api.get<{ tags: string[] }>('/exisiting-tag', person.token)).body.tags).not.toContain('trashtest');
    }
    // Previous/next steps over it.
    expect((await api.get(`/api/images/${newer}/neighbours`, alice.token)).body).toMatchObject({ next: older });
    expect((await api.get<{ data: Image[] }>('/my-liked-images', alice.token)).body.data.map((i) => i._id)).not.toContain(photo);
    expect((await api.get<{ images: Image[] }>('/shared-images', bob.token)).body.images.map((i) => i._id)).not.toContain(photo);
    expect((await api.post('/api/share-restricted', { imageIds: [photo], emails: [admin.email] }, alice.token)).status).toBe(404);
    expect((await api.post(`/images/${photo}/like`, { liked: false }, alice.token)).status).toBe(404);

    // In the Trash: for its uploader and admins, with a thumbnail only they are given; nobody else.
    const trashUrls: string[] = [];
    for (const person of [alice, admin]) {
      const trash = await trashOf(person);
      const entry = trash.images.find((image) => image._id === photo);
      expect(entry).toMatchObject({ trimmedURL: null, trashedBy: alice.username });
      expect(trash.trashDays).toBe(30);
      expect(entry?.thumbnailURL).toMatch(/\/trash\?/);
      expect(await status(entry?.thumbnailURL)).toBe(200);
      trashUrls.push(entry?.thumbnailURL ?? '');
    }
    // A Trash URL is the thumbnail's and only while the viewer sees it in the Trash.
    expect(await status(trashUrls[0]?.replace('/trash?', '/display?'))).toBe(404);
    expect((await trashOf(bob)).images).toEqual([]);
    expect((await api.post('/api/trash/restore', { imageIds: [photo] }, bob.token)).status).toBe(404);
    expect((await api.post('/api/trash/delete', { imageIds: [photo] }, bob.token)).status).toBe(404);
    // A second delete of a trashed photo finds nothing.
    expect((await api.post('/api/deleteImages', { imageIds: [photo] }, alice.token)).status).toBe(404);

    const restored = await api.post('/api/trash/restore', { imageIds: [photo] }, alice.token);
    expect(restored.body).toEqual({ message: 'Image restored.' });
    for (const person of everyone) {
      expect((await page(person)).pagination.totalImages).toBe(totals.get(person));
      expect(await idsOf(person)).toContain(photo);
      expect((await api.get<{ tags: string[] }>('/exisiting-tag', person.token)).body.tags).toContain('trashtest');
    }
    const back = (await api.get<Image>(`/api/images/${photo}`, alice.token)).body;
    expect(back).toMatchObject({ tags: ['trashtest'], likes: 1, liked: true });
    expect(await status(back.thumbnailURL)).toBe(200);
    expect((await api.get(`/isUserInPhoto/${photo}`, alice.token)).body).toEqual({ isUserInPhoto: true });
    expect((await api.get<{ images: Image[] }>('/shared-images', bob.token)).body.images.map((i) => i._id)).toContain(photo);
    expect((await api.get<{ images: Image[] }>('/search?query=trashtest', bob.token)).body.images.map((i) => i._id)).toEqual([photo]);
    expect((await trashOf(alice)).images).toEqual([]);
    for (const url of trashUrls) expect(await status(url)).toBe(404);
  });

  it('lets an admin trash, see and restore anyone’s photo; the uploader finds it in their Trash too', async () => {
    const photo = await uploadNew(bob);
    expect((await api.post('/api/deleteImages', { imageIds: [photo] }, admin.token)).status).toBe(200);
    expect((await trashOf(bob)).images.map((i) => i._id)).toEqual([photo]);
    expect((await trashOf(alice)).images.map((i) => i._id)).not.toContain(photo);
    expect((await api.post('/api/trash/restore', { imageIds: [photo] }, admin.token)).status).toBe(200);
    expect(await idsOf(bob)).toContain(photo);
  });

  it('deletes for good (rows and files, files only when no other image uses them), all or nothing', async () => {
    seed += 1;
    const shared = await tinyPng(9000 + seed);
    const mine = (await uploadBytes(alice, shared)).id;
    const theirs = (await uploadBytes(bob, shared)).id;
    const own = await uploadNew(alice);
    expect(await filesOf(shared)).toHaveLength(3);
    expect((await api.post('/api/deleteImages', { imageIds: [mine, own] }, alice.token)).status).toBe(200);
    expect(await filesOf(shared)).toHaveLength(3);

    const refused = await api.post('/api/trash/delete', { imageIds: [mine, theirs] }, alice.token);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ message: expect.stringContaining(`Image ${theirs}`) });
    expect((await trashOf(alice)).images.map((i) => i._id).sort()).toEqual([mine, own].sort());

    const ownFilesBefore = (await mediaFiles()).length;
    expect((await api.post('/api/trash/delete', { imageIds: [mine] }, alice.token)).body).toEqual({ message: 'Image deleted for good.' });
    expect(await server.rows('select id from images where id = ?', [Number(mine)])).toEqual([]);
    // Bob's upload of the same picture still uses its files.
    expect(await filesOf(shared)).toHaveLength(3);
    expect(await status((await api.get<Image>(`/api/images/${theirs}`, bob.token)).body.thumbnailURL)).toBe(200);

    expect((await api.post('/api/trash/empty', {}, alice.token)).body).toEqual({ message: 'The Trash is empty: 1 image deleted for good.' });
    expect(await server.rows('select id from images where id = ?', [Number(own)])).toEqual([]);
    await eventually(async () => expect((await mediaFiles()).length).toBe(ownFilesBefore - 3));
    expect((await trashOf(alice)).images).toEqual([]);
  });

  it('purges what has been in the Trash longer than TRASH_DAYS, rows and files, and keeps the rest', async () => {
    seed += 1;
    const bytes = await tinyPng(12000 + seed);
    const old = (await uploadBytes(alice, bytes)).id;
    const recent = await uploadNew(alice);
    await api.post('/api/deleteImages', { imageIds: [old] }, alice.token);
    clock.advance(20 * DAY_MS);
    await api.post('/api/deleteImages', { imageIds: [recent] }, alice.token);
    clock.advance(11 * DAY_MS);
    // The purge runs at start (and every 10 minutes).
    await server.restart();
    api = apiClient(server.url);
    await eventually(async () => expect(await server.rows('select id from images where id = ?', [Number(old)])).toEqual([]));
    await eventually(async () => expect(await filesOf(bytes)).toEqual([]));
    expect((await trashOf(alice)).images.map((i) => i._id)).toEqual([recent]);
    await api.post('/api/trash/restore', { imageIds: [recent] }, alice.token);
    expect(await idsOf(alice)).toContain(recent);
  });

  it('deletes for good once when several deletes of the same photos race (as two processes purging would)', async () => {
    seed += 1;
    const bytes = await tinyPng(18000 + seed);
    const photo = (await uploadBytes(alice, bytes)).id;
    await api.post(`/images/${photo}/addTag`, { tag: 'racing' }, alice.token);
    await api.post('/api/deleteImages', { imageIds: [photo] }, alice.token);
    const answers = await Promise.all([
      api.post('/api/trash/delete', { imageIds: [photo] }, alice.token),
      api.post('/api/trash/delete', { imageIds: [photo] }, admin.token),
      api.post('/api/trash/empty', {}, alice.token),
    ]);
    // Each either deleted it or found it already gone; none failed.
    for (const answer of answers) expect([200, 404]).toContain(answer.status);
    expect(await server.rows('select id from images where id = ?', [Number(photo)])).toEqual([]);
    await eventually(async () => expect(await filesOf(bytes)).toEqual([]));
    await eventually(async () => expect(await server.rows('select id from media where status = ?', ['deleting'])).toEqual([]));
    // Its tag left the counts once, not twice.
    const [tag] = await server.rows<{ usage_count: number }>('select usage_count from tags where name = ?', ['racing']);
    expect(Number(tag?.usage_count)).toBe(0);
  });

  it('restores a trashed photo when its uploader uploads the same picture again', async () => {
    // A person uploading a picture they deleted wants it back, not a second copy: the re-upload is
    // answered as a duplicate of the trashed image, which comes back with its tags and likes.
    seed += 1;
    const bytes = await tinyPng(15000 + seed);
    const photo = (await uploadBytes(alice, bytes)).id;
    await api.post(`/images/${photo}/addTag`, { tag: 'comeback' }, alice.token);
    await api.post('/api/deleteImages', { imageIds: [photo] }, alice.token);
    expect(await idsOf(alice)).not.toContain(photo);
    const again = await uploadBytes(alice, bytes, 'again.png');
    expect(again).toEqual({ id: photo, status: 'duplicate' });
    expect(await idsOf(alice)).toContain(photo);
    expect((await api.get<Image>(`/api/images/${photo}`, alice.token)).body.tags).toEqual(['comeback']);
    expect((await trashOf(alice)).images.map((i) => i._id)).not.toContain(photo);
    // Someone else uploading the same bytes while it is trashed gets their own image.
    await api.post('/api/deleteImages', { imageIds: [photo] }, alice.token);
    const bobs = await uploadBytes(bob, bytes, 'bobs.png');
    expect(bobs.status).toBe('kept');
    expect(bobs.id).not.toBe(photo);
    expect((await trashOf(alice)).images.map((i) => i._id)).toContain(photo);
  });
});

describe.each(testDatabases)('TRASH_DAYS=0 on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;

  beforeAll(async () => {
    server = await startTestServer(database, { env: { TRASH_DAYS: '0' } });
    api = apiClient(server.url);
  }, 60_000);
  afterAll(async () => server?.close());

  it('deletes at once, as before the Trash: rows and files go, the Trash stays empty', async () => {
    const person = await signUpConfirmed(server, api, { prefix: 'now' });
    const bytes = await tinyPng(21000);
    const res = await upload(server.url, person.token, [{ source: bytes, name: 'now.png' }]);
    const id = res.body.results?.[0]?.imageId ?? '';
    expect((await api.post('/api/deleteImages', { imageIds: [id] }, person.token)).status).toBe(200);
    expect(await server.rows('select id from images where id = ?', [Number(id)])).toEqual([]);
    const hash = createHash('sha256').update(bytes).digest('hex');
    await eventually(async () => expect((await listFiles(path.join(server.dataDir, 'media'))).filter((f) => f.includes(hash))).toEqual([]));
    expect((await api.get<TrashPage>('/api/trash', person.token)).body).toMatchObject({ images: [], trashDays: 0 });
  });
});
