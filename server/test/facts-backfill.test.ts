import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageInfo } from '@photo/contract';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { LocalStorage } from '../src/storage/local-storage.js';
import { S3Storage } from '../src/storage/s3-storage.js';
import { UrlSigner } from '../src/storage/url-signer.js';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { POSTGRES_ADMIN_URL, testSetups } from './support/databases.js';
import { eventually } from './support/eventually.js';
import { apiClient, type ApiClient } from './support/http.js';
import { TESTDATA, tinyPng, upload } from './support/images.js';
import { startS3Server } from './support/s3.js';
import { startTestServer, TEST_JWT_SECRET, type TestServer } from './support/test-server.js';

interface MediaFacts {
  id: number;
  original_key: string;
  facts_version: number;
  taken_at: string | null;
  taken_offset: string | null;
  file_date: string | null;
  camera: string | null;
  lens: string | null;
  f_number: number | null;
  iso: number | null;
}

const PHOTOS = {
  heic: 'formats/IMG_2927.HEIC',
  // Its metadata comes after the image data: from S3 it is read through a temporary copy.
  nokia: 'formats/HMD_Nokia_8.3_5G_hdr.heif',
  canon: 'large/canon-eos-5d-mark-iii-22mp.jpg',
  avif: 'formats/canon-eos-70d-20mp.avif',
  // Its EXIF follows an ICC profile: the reader before the timeline found nothing in it.
  iphone4: 'camera/Apple iPhone 4.jpg',
} as const;
type Photo = keyof typeof PHOTOS | 'lost';

describe.each(testSetups)('reading the facts of pictures stored before the timeline on $database ($storage storage)', ({ database, storage }) => {
  let server: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let api: ApiClient;
  let alice: SignedUpPerson;
  const ids = {} as Record<Photo, string>;

  beforeAll(async () => {
    if (storage === 's3') s3 = await startS3Server();
    server = await startTestServer(database, { env: { ...s3?.env } });
    api = apiClient(server.url);
    await signUpConfirmed(server, api, { prefix: 'admin' });
    alice = await signUpConfirmed(server, api, { prefix: 'alice' });
    const names = Object.keys(PHOTOS) as (keyof typeof PHOTOS)[];
    const res = await upload(server.url, alice.token, [
      ...names.map((name) => ({ source: path.join(TESTDATA, PHOTOS[name]), name: path.basename(PHOTOS[name]) })),
      { source: await tinyPng(777), name: 'lost.png' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    [...names, 'lost' as const].forEach((name, index) => (ids[name] = res.body.results?.[index]?.imageId ?? ''));
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  const mediaOf = async (image: string) =>
    (await server.rows<MediaFacts>('select media.* from media join images on images.media_id = media.id where images.id = ?', [Number(image)]))[0];
  // The server's address changes with each restart.
  const info = async (image: string) => (await apiClient(server.url).get<ImageInfo>(`/api/images/${image}/info`, alice.token)).body;
  const libraryState = async () =>
    (await server.rows<{ version: number; reset_version: number }>('select version, reset_version from library_state where id = 1'))[0];

  /** The state migration 010 leaves: facts_version 0, only date/camera/place, keys from the date read as UTC. */
  async function storeTheOldWay(): Promise<void> {
    await server.sql(
      'update media set facts_version = 0, taken_offset = null, file_date = null, lens = null, f_number = null, exposure_time = null, iso = null, focal_length = null',
    );
    // What the old reader kept of these two: nothing of the iPhone 4; a date and camera of the lost one.
    await server.sql('update media set taken_at = null, camera = null, gps_latitude = null, gps_longitude = null where id = ?', [(await mediaOf(ids.iphone4))?.id]);
    await server.sql("update media set taken_at = '2001-02-03T04:05:06', camera = 'Old Camera' where id = ?", [(await mediaOf(ids.lost))?.id]);
    const images = await server.rows<{ id: number; taken_at: string | null; created_at: string }>(
      'select images.id, media.taken_at, images.created_at from images join media on media.id = images.media_id',
    );
    for (const image of images) {
      const key = image.taken_at ? Date.parse(`${image.taken_at}Z`) : Date.parse(image.created_at);
      await server.sql('update images set taken_key = ?, date_source = ? where id = ?', [key, image.taken_at ? 'taken' : 'upload', image.id]);
    }
  }

  /** Removes the original of the 'lost' picture from storage, as a failed disk or bucket would. */
  async function loseOriginal(): Promise<void> {
    const key = (await mediaOf(ids.lost))?.original_key ?? '';
    const signer = new UrlSigner('unused');
    const store = s3 ? new S3Storage(s3.config, signer) : new LocalStorage(path.join(server.dataDir, 'media'), signer);
    await store.delete([key]);
    expect(await store.exists(key)).toBe(false);
  }

  /** Another process on the same database and storage, built as main.ts would. */
  async function secondProcess(): Promise<FastifyInstance> {
    const pgName = database === 'postgres' ? (await server.rows<{ name: string }>('select current_database() as name'))[0]?.name : undefined;
    const pgUrl = new URL(POSTGRES_ADMIN_URL);
    pgUrl.pathname = `/${pgName}`;
    const config = loadConfig({
      DATA_DIR: server.dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      JWT_SECRET: TEST_JWT_SECRET,
      PUBLIC_URL: 'http://photos.test',
      WEB_DIST: path.join(server.dataDir, 'no-web-build'),
      ...(pgName ? { DATABASE_URL: pgUrl.toString() } : {}),
      ...s3?.env,
    });
    // Its own temporary folder: a start empties DATA_DIR/tmp, which the other process is using.
    const app = await buildApp({ config: { ...config, tempDir: await mkdtemp(path.join(os.tmpdir(), 'photo-second-')) } });
    await app.ready();
    return app;
  }

  it('fills in every fact and each image its place in the timeline, from the originals, at start, in two processes at once', async () => {
    await storeTheOldWay();
    await loseOriginal();
    expect((await info(ids.heic)).sortedAt).toBe('2020-05-04T18:39:11.000Z');
    expect((await info(ids.iphone4)).dateSource).toBe('upload');
    const before = await libraryState();

    const [, other] = await Promise.all([server.restart(), secondProcess()]);
    try {
      await eventually(async () => {
        const versions = await server.rows<{ facts_version: number }>("select facts_version from media where status = 'ready'");
        expect(versions.map((row) => row.facts_version)).toEqual(versions.map(() => 1));
      });
    } finally {
      await other.close();
    }

    // The date's offset moves the iPhone 11 Pro photo 4 hours; lens and exposure are there now.
    expect(await info(ids.heic)).toMatchObject({
      takenAt: '2020-05-04T18:39:11', takenOffset: '-04:00', sortedAt: '2020-05-04T22:39:11.000Z', dateSource: 'taken',
      lens: 'iPhone 11 Pro back triple camera 4.25mm f/1.8', aperture: 1.8, iso: 32, focalLength: 4.25,
    });
    expect(await info(ids.nokia)).toMatchObject({ takenAt: null, dateSource: 'file', sortedAt: '2022-01-12T07:30:14.000Z', aperture: 1.89, iso: 100 });
    expect(await info(ids.canon)).toMatchObject({ lens: 'EF24-70mm f/2.8L USM', aperture: 2.8, iso: 1000, focalLength: 35 });
    expect(await mediaOf(ids.canon)).toMatchObject({ file_date: '2017-06-01T13:04:55' });
    expect(await info(ids.avif)).toMatchObject({ camera: 'Canon EOS 70D', lens: 'EF50mm f/1.8 STM', iso: 400 });
    const iphone4 = await info(ids.iphone4);
    expect(iphone4).toMatchObject({ takenAt: '2011-01-13T14:33:39', dateSource: 'taken', camera: 'Apple iPhone 4', iso: 500 });
    expect(iphone4.place?.latitude).toBeCloseTo(41.853, 3);
    // An original that cannot be read keeps what the upload knew, and is not tried again.
    expect(await info(ids.lost)).toMatchObject({ takenAt: '2001-02-03T04:05:06', camera: 'Old Camera', dateSource: 'taken', sortedAt: '2001-02-03T04:05:06.000Z' });

    // The order changed: the moved images were recorded as removed and stamped to be merged in
    // again at their new places, so cached lists catch up instead of starting over.
    const after = await libraryState();
    expect(after?.version).toBeGreaterThan(before?.version ?? 0);
    const removed = await server.rows<{ image_id: number }>('select image_id from library_removals where version > ?', [before?.version ?? 0]);
    expect(removed.map((row) => String(row.image_id))).toEqual(expect.arrayContaining([ids.heic, ids.iphone4]));
    const gallery = (await apiClient(server.url).get<{ images: { _id: string; sortedAt: string }[] }>('/api/gridimages?page=1&limit=50', alice.token)).body.images;
    const sorted = [...gallery].sort((a, b) => b.sortedAt.localeCompare(a.sortedAt) || Number(b._id) - Number(a._id));
    expect(gallery.map((image) => image._id)).toEqual(sorted.map((image) => image._id));

    // Nothing left to do: another start changes nothing.
    await server.restart();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await libraryState()).toEqual(after);
  });
});
