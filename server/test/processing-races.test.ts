import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '@photo/contract';
import { testDatabases } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { TESTDATA, listFiles, upload, type UploadFile, type UploadResult } from './support/images.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { eventually } from './support/eventually.js';

/** Polls until `check` passes. */
/** GET of a photo URL; the body is read, so the server's answer ends (close waits for it). */
async function load(base: string, url: string | null | undefined): Promise<number> {
  const res = await fetch(new URL(url ?? '', base));
  await res.arrayBuffer();
  return res.status;
}

const photo = (file: string, name = path.basename(file)): UploadFile => ({ source: path.join(TESTDATA, file), name });
const sha256 = async (file: UploadFile) =>
  createHash('sha256').update(typeof file.source === 'string' ? await readFile(file.source) : file.source).digest('hex');

/** A copy of `file` whose primary image claims `width`×`height` (its second ispe box: the grid's). */
function withHugeIspe(file: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(file);
  const head = copy.subarray(0, 8192);
  const second = head.indexOf('ispe', head.indexOf('ispe', 0, 'latin1') + 4, 'latin1');
  copy.writeUInt32BE(width, second + 8);
  copy.writeUInt32BE(height, second + 12);
  return copy;
}

/**
 * Processing racing deletes and re-uploads, over real HTTP. One image worker, so a photo queued
 * behind another is still being processed when it is deleted.
 */
describe.each(testDatabases)('processing races (%s)', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let alice: string;
  let bob: string;
  const statuses: number[] = [];
  const mediaDir = () => path.join(server.dataDir, 'media');

  beforeAll(async () => {
    // These races are about the final delete (rows, files, claims): TRASH_DAYS=0 deletes at once, as the purge does.
    server = await startTestServer(database, { env: { IMAGE_WORKERS: '1', TRASH_DAYS: '0' } });
    api = apiClient(server.url);
    alice = (await api.post<{ token: string }>('/signup', newPerson('alice'))).body.token;
    bob = (await api.post<{ token: string }>('/signup', newPerson('bob'))).body.token;
  }, 60_000);
  afterAll(async () => server?.close());

  const send = async (token: string, files: UploadFile[]) => {
    const res = await upload(server.url, token, files);
    statuses.push(res.status);
    return res;
  };
  const remove = async (token: string, ids: (string | number)[]) => {
    const res = await api.post('/api/deleteImages', { imageIds: ids.map(String) }, token);
    statuses.push(res.status);
    return res;
  };
  /** The id of `fileName`'s image as soon as its row exists (before its upload is answered). */
  const imageRowOf = async (fileName: string): Promise<number> => {
    for (;;) {
      const [row] = await server.rows<{ id: number }>('select id from images where file_name = ?', [fileName]);
      if (row) return Number(row.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const filesOf = async (hash: string) => (await listFiles(mediaDir())).filter((file) => file.includes(hash));
  /** Every listed image of the person loads its thumbnail and display image. */
  const expectAllLoad = async (token: string) => {
    const images = (await api.get<{ images: Image[] }>('/api/gridimages', token)).body.images;
    for (const image of images) {
      for (const url of [image.thumbnailURL, image.trimmedURL]) {
        expect(url, `image ${image._id}`).toBeTruthy();
        expect(await load(server.url, url), `${url}`).toBe(200);
      }
    }
    return images;
  };
  /** Nothing stored that no media row names, and no media row left half-done. */
  const expectNoStrayFiles = async () => {
    await eventually(async () => {
      const rows = await server.rows<{ status: string; original_key: string; display_key: string | null; thumbnail_key: string | null }>(
        'select status, original_key, display_key, thumbnail_key from media',
      );
      expect(rows.filter((row) => row.status !== 'ready')).toEqual([]);
      const keys = rows.flatMap((row) => [row.original_key, row.display_key, row.thumbnail_key]).filter(Boolean).sort();
      expect(await listFiles(mediaDir())).toEqual(keys);
      expect(await listFiles(path.join(server.dataDir, 'tmp'))).toEqual([]);
    });
  };

  it('removes what processing wrote when its image is deleted meanwhile: while queued, and while decoding', async () => {
    // Queued: the only worker is busy with the 22 MP photo sent first in the same request.
    const queued = photo('large/Oppo R7 Plus.jpg', 'queued.jpg');
    const answered = send(alice, [photo('large/canon-eos-5d-mark-iii-22mp.jpg', 'first.jpg'), queued]);
    expect((await remove(alice, [await imageRowOf('queued.jpg')])).status).toBe(200);
    const results = (await answered).body.results ?? [];
    expect(results.find((r) => r.fileName === 'queued.jpg')).toMatchObject({
      status: 'refused',
      reason: expect.stringMatching(/deleted while it was being processed/),
    });
    expect(await filesOf(await sha256(queued))).toEqual([]);

    // Decoding: deleted as soon as its row exists, while the original is stored and the photo decoded.
    const decoding = photo('large/Kodak PIXPRO FZ201.jpg', 'decoding.jpg');
    const single = send(alice, [decoding]);
    expect((await remove(alice, [await imageRowOf('decoding.jpg')])).status).toBe(200);
    expect((await single).body.results?.[0]).toMatchObject({ status: 'refused', reason: expect.stringMatching(/deleted/) });
    expect(await filesOf(await sha256(decoding))).toEqual([]);
    expect(await server.rows('select id from media where content_hash = ?', [await sha256(decoding)])).toEqual([]);
    await expectNoStrayFiles();
  }, 60_000);

  it('keeps the picture when someone else uploads the same content while the first upload, being processed, is deleted', async () => {
    const shared = photo('camera/Apple iPhone 5.jpg', 'shared.jpg');
    const first = send(alice, [photo('large/canon-eos-5d-mark-iii-22mp.jpg', 'busy.jpg'), shared]);
    const aliceImage = await imageRowOf('shared.jpg');
    // Bob's upload finds the pending picture, links to it and waits for it to be ready.
    const second = send(bob, [{ ...shared, name: 'bobs.jpg' }]);
    await imageRowOf('bobs.jpg');
    expect((await remove(alice, [aliceImage])).status).toBe(200);
    await first;
    const bobs = (await second).body.results?.[0];
    expect(bobs?.status).toBe('kept');
    // Answered once visible: the image and its files are there at once.
    const image = await api.get<Image>(`/api/images/${bobs?.imageId}`, bob);
    expect(image.status).toBe(200);
    expect(await load(server.url, image.body.trimmedURL)).toBe(200);
    expect(await filesOf(await sha256(shared))).toHaveLength(3);
    await expectAllLoad(bob);
    await expectNoStrayFiles();
  }, 60_000);

  it('never loses the files of a re-upload racing the delete of the same picture', async () => {
    const picture = photo('camera/Samsung SM-J327T1.jpg', 'race.jpg');
    const answers: UploadResult[] = [];
    for (let round = 0; round < 12; round += 1) {
      const owner = round % 2 === 0 ? alice : bob;
      const id = (await send(owner, [picture])).body.results?.[0]?.imageId;
      expect(id).toBeTruthy();
      // The delete of the last image of the picture and its re-upload (by its owner or someone else) at once.
      const reuploader = round % 3 === 0 ? owner : round % 2 === 0 ? bob : alice;
      const [deleted, again] = await Promise.all([
        new Promise((resolve) => setTimeout(resolve, round % 4)).then(() => remove(owner, [id ?? ''])),
        send(reuploader, [picture]),
      ]);
      expect(deleted.status).toBe(200);
      const result = again.body.results?.[0];
      expect(result?.status).not.toBe('refused');
      if (result) answers.push(result);
      if (result?.status === 'kept') {
        // A new image: it is visible when answered, with its files.
        const image = await api.get<Image>(`/api/images/${result.imageId}`, reuploader);
        expect(image.status).toBe(200);
        expect(await load(server.url, image.body.thumbnailURL)).toBe(200);
      }
      await expectAllLoad(alice);
      await expectAllLoad(bob);
    }
    await expectNoStrayFiles();
    // Every listed copy of the picture is one of the re-uploads, and loads.
    const listed = [...(await expectAllLoad(alice)), ...(await expectAllLoad(bob))].filter((image) => image.FileName === 'race.jpg');
    expect(listed.length).toBeGreaterThan(0);
  }, 120_000);

  it('makes a re-upload wait while the picture’s files are being removed, then store its own copy', async () => {
    const picture = photo('camera/Olympus PEN E-P3.jpg', 'removing.jpg');
    const hash = await sha256(picture);
    const id = (await send(alice, [picture])).body.results?.[0]?.imageId;
    // What a delete leaves between its commit and the end of its file removal, done by another live
    // process (a host of its own, a fresh heartbeat): the image is gone, the row is 'deleting'.
    await server.sql('delete from images where id = ?', [Number(id)]);
    await server.sql('update library_state set version = version + 1, reset_version = version + 1');
    await server.sql("update media set status = 'deleting', claimed_by = 'another-host~0|1|1|x', claimed_at = ? where content_hash = ?", [
      new Date().toISOString(),
      hash,
    ]);
    let answered = false;
    const again = send(bob, [picture]).finally(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(answered).toBe(false);
    // The other process finishes: the files, then the row. Only now may the content be stored again.
    for (const file of await filesOf(hash)) await rm(path.join(mediaDir(), file));
    await server.sql('delete from media where content_hash = ?', [hash]);
    const result = (await again).body.results?.[0];
    expect(result?.status).toBe('kept');
    const image = await api.get<Image>(`/api/images/${result?.imageId}`, bob);
    expect(image.status).toBe(200);
    expect(await load(server.url, image.body.trimmedURL)).toBe(200);
    expect(await filesOf(hash)).toHaveLength(3);
    await expectNoStrayFiles();
  }, 30_000);

  it('finishes the file removal a dead process left, then stores the re-upload afresh', async () => {
    const picture = photo('camera/Canon PowerShot A85.jpg', 'left-behind.jpg');
    const hash = await sha256(picture);
    const id = (await send(alice, [picture])).body.results?.[0]?.imageId;
    await server.sql('delete from images where id = ?', [Number(id)]);
    await server.sql('update library_state set version = version + 1, reset_version = version + 1');
    // Its heartbeat stopped long ago.
    await server.sql("update media set status = 'deleting', claimed_by = 'another-host~0|1|1|x', claimed_at = '2000-01-01T00:00:00.000Z' where content_hash = ?", [hash]);
    const result = (await send(bob, [picture])).body.results?.[0];
    expect(result?.status).toBe('kept');
    const image = await api.get<Image>(`/api/images/${result?.imageId}`, bob);
    expect(image.status).toBe(200);
    expect(await load(server.url, image.body.thumbnailURL)).toBe(200);
    expect(await filesOf(hash)).toHaveLength(3);
    await expectNoStrayFiles();
  }, 30_000);

  it('refuses a small HEIC claiming ~196 MP from its header: its decode would not fit the memory budget', async () => {
    const heic = await readFile(path.join(TESTDATA, 'formats/IMG_2927.HEIC'));
    const bomb = withHugeIspe(heic, 14_000, 14_000);
    const started = performance.now();
    const res = await send(alice, [{ source: bomb, name: 'claims-196mp.heic' }]);
    expect(res.status).toBe(413);
    expect(res.body.results?.[0]?.reason).toMatch(/14000×14000 pixels is over the \d+ megapixel limit for HEIC/);
    // Refused from the header: no decode (which would take seconds and gigabytes) was attempted.
    expect(performance.now() - started).toBeLessThan(3000);
    expect(await filesOf(createHash('sha256').update(bomb).digest('hex'))).toEqual([]);
  });

  it('never answered any of it with a server error', () => {
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });
});
