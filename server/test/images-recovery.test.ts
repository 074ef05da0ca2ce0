import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '@photo/contract';
import { testDatabases } from './support/databases.js';
import { apiClient, newPerson } from './support/http.js';
import { TESTDATA, listFiles, upload } from './support/images.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { eventually } from './support/eventually.js';

/** Polls until `check` passes (work that happens in the background after a restart). */
describe.each(testDatabases)('interrupted work is finished or cleaned up (%s)', (database) => {
  let server: TestServer;
  let token: string;
  const media = () => listFiles(path.join(server.dataDir, 'media'));

  beforeAll(async () => {
    server = await startTestServer(database);
    token = (await apiClient(server.url).post<{ token: string }>('/signup', newPerson())).body.token;
  });
  afterAll(async () => server?.close());

  it('resumes an image whose processing stopped with the process, and forgets one whose original is gone', async () => {
    const files = ['camera/HTC Desire.jpg', 'camera/Nikon D1X.jpg'].map((file) => ({ source: path.join(TESTDATA, file), name: path.basename(file) }));
    const [resumed, lost] = (await upload(server.url, token, files)).body.results?.map((r) => Number(r.imageId)) ?? [];
    // The state a crash mid-processing leaves: pending, claimed long ago, derived files not written.
    for (const id of [resumed, lost]) {
      await server.sql(
        "update media set status = 'pending', claimed_at = '2000-01-01T00:00:00.000Z', display_key = null, thumbnail_key = null where id = (select media_id from images where id = ?)",
        [id],
      );
      await server.sql('update images set ready = 0 where id = ?', [id]);
    }
    await server.sql('update library_state set version = version + 1, reset_version = version + 1');
    for (const file of (await media()).filter((f) => f.startsWith('derived/'))) await rm(path.join(server.dataDir, 'media', file));
    const lostOriginal = `originals/${createHash('sha256').update(await readFile(files[1]?.source ?? '')).digest('hex')}`;
    await rm(path.join(server.dataDir, 'media', lostOriginal));

    const api = () => apiClient(server.url);
    expect((await api().get(`/api/images/${resumed}`, token)).status).toBe(404);
    await server.restart();

    await eventually(async () => {
      const image = await api().get<Image>(`/api/images/${resumed}`, token);
      expect(image.status).toBe(200);
      expect((await fetch(new URL(image.body.trimmedURL ?? '', server.url))).status).toBe(200);
    });
    await eventually(async () => expect(await media()).toHaveLength(3));
    expect((await api().get(`/api/images/${lost}`, token)).status).toBe(404);
    expect((await api().get<{ images: Image[] }>('/api/gridimages', token)).body.images.map((i) => Number(i._id))).toEqual([resumed]);
  }, 60_000);

  it('leaves nothing behind when the client breaks off in the middle of a file', async () => {
    const before = await media();
    const photo = await readFile(path.join(TESTDATA, 'large/Oppo R7 Plus.jpg'));
    const boundary = 'x-boundary-x';
    const url = new URL('/bulk-upload', server.url);
    await new Promise<void>((resolve) => {
      const req = httpRequest(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(photo.length + 500),
        },
      });
      req.on('error', () => resolve());
      req.on('response', () => resolve());
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="cut.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
      req.write(photo.subarray(0, photo.length / 2), () => setTimeout(() => req.destroy(), 100));
    });
    await eventually(async () => expect(await listFiles(path.join(server.dataDir, 'tmp'))).toEqual([]));
    expect(await media()).toEqual(before);
    expect((await apiClient(server.url).get<{ images: Image[] }>('/api/gridimages', token)).body.images).toHaveLength(1);
  });
});
