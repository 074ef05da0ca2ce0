import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { Image } from '@photo/contract';
import { createPostgresDatabase } from './support/databases.js';
import { apiClient, newPerson } from './support/http.js';
import { TESTDATA, listFiles, upload, type UploadFile, type UploadResult } from './support/images.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { eventually } from './support/eventually.js';

/** Polls until `check` passes. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Real photos of every kind the server decodes differently: camera JPEGs, a 16 MP one, HEIC (WASM, threads), WebP, PNG. */
const PHOTOS: UploadFile[] = [
  'camera/Apple iPhone 4.jpg',
  'camera/Apple iPhone 5.jpg',
  'camera/HTC Desire.jpg',
  'camera/Sony DSC-HX5V (2).jpg',
  'camera/FujiFilm FinePixS2Pro.jpg',
  'camera/Samsung GT-I9000 (Galaxy S).jpg',
  'camera/Samsung SM-J327T1.jpg',
  'camera/Canon EOS REBEL T3i.jpg',
  'camera/Canon PowerShot A85.jpg',
  'camera/Olympus PEN E-P3.jpg',
  'camera/Nikon D1X.jpg',
  'large/Kodak PIXPRO FZ201.jpg',
  'formats/IMG_2927.HEIC',
  'formats/Alpha Lossy (1).webp',
  'formats/dotnet-256x256-alpha-palette.png',
].map((file) => ({ source: path.join(TESTDATA, file), name: path.basename(file) }));

/**
 * The photos made new for one round: the same pictures with bytes added where decoders ignore them
 * (after a JPEG's end marker, a HEIF `free` box), so each round has content to store and process.
 * WebP and PNG stay as they are: uploaded again each round, they are duplicates.
 */
async function roundOf(round: number): Promise<UploadFile[]> {
  return Promise.all(
    PHOTOS.map(async (photo) => {
      const bytes = await readFile(photo.source as string);
      const mark = Buffer.from(`round ${round}`);
      const name = `r${round}-${photo.name}`;
      if (photo.name.endsWith('.jpg')) return { source: Buffer.concat([bytes, mark]), name };
      if (photo.name.endsWith('.HEIC')) {
        const free = Buffer.alloc(8);
        free.writeUInt32BE(8 + mark.length);
        free.write('free', 4, 'latin1');
        return { source: Buffer.concat([bytes, free, mark]), name };
      }
      return { source: bytes, name };
    }),
  );
}

/** GET of a photo URL, its body read; the status. */
async function load(base: string, url: string | null | undefined): Promise<number> {
  const res = await fetch(new URL(url ?? '', base));
  await res.arrayBuffer();
  return res.status;
}

/** Waits until the server's database holds media not yet ready (at most `withinMs`); returns the ms since `since`. */
async function untilPending(dbFile: string, since: number, withinMs: number): Promise<number> {
  const deadline = since + withinMs + 5_000;
  while (Date.now() < deadline) {
    const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
    try {
      const { n } = db.prepare("select count(*) as n from media where status = 'pending'").get() as { n: number };
      if (n > 0) return Date.now() - since;
    } finally {
      db.close();
    }
    await sleep(10);
  }
  throw new Error('no photo was ever pending in the last round');
}

function integrityCheck(file: string): string {
  const db = new SQLite(file);
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) ?? '';
  } finally {
    db.close();
  }
}

describe('kill -9 in the middle of bulk uploads, ten times in a row (SQLite)', () => {
  let dataDir = '';
  let server: ChildServer | undefined;
  afterAll(async () => {
    await server?.kill();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('restarts into an intact database where every answered upload and re-upload is visible and nothing is left behind', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photo-crash-'));
    const dbFile = path.join(dataDir, 'photos.sqlite');
    const mediaDir = path.join(dataDir, 'media');
    const answered = new Map<string, UploadResult>();
    const deleted = new Set<string>();
    const kills: number[] = [];
    let token = '';

    const uploaded: UploadFile[][] = [];
    // Round 0 runs to its end: how long one round's processing takes, to kill the others within it.
    let roundMs = 0;
    for (let round = 0; round <= 10; round += 1) {
      server = await startChildServer({ TRASH_DAYS: '0' }, { dataDir });
      const { url } = server;
      const api = apiClient(url);
      if (round === 0) token = (await api.post<{ token: string }>('/signup', newPerson('crash'))).body.token;
      const files = await roundOf(round);
      uploaded.push(files);
      // Deletes of a few listed photos race the upload (and the kill).
      const listed = (await api.get<{ images: Image[] }>('/api/gridimages', token)).body.images;
      const doomed = listed.filter((_, i) => i % 7 === round % 7).map((image) => image._id);
      for (const id of doomed) deleted.add(id);
      const started = Date.now();
      const work = Promise.allSettled([
        upload(url, token, files).then((res) => {
          for (const result of res.body.results ?? []) if (result.imageId) answered.set(result.imageId, result);
        }),
        sleep(Math.random() * 300).then(() => api.post('/api/deleteImages', { imageIds: doomed }, token)),
      ]);
      if (round === 0) {
        await work;
        roundMs = Date.now() - started;
        await server.kill();
        continue;
      }
      if (round < 10) {
        const delay = 50 + Math.random() * roundMs;
        kills.push(Math.round(delay));
        await sleep(delay);
      } else {
        // The last kill lands while photos are pending for sure (a random moment may fall after the
        // round's work on a quick machine), so the restart below has half-done work to finish.
        kills.push(await untilPending(dbFile, started, roundMs));
      }
      await server.kill();
      await work;
    }
    // The database as ten crashes left it, with work left half-done (else this test proves nothing).
    expect(integrityCheck(dbFile), `kills after ${kills.join(', ')} ms`).toBe('ok');
    const unfinished = new SQLite(dbFile, { readonly: true });
    try {
      expect(unfinished.prepare("select count(*) as n from media where status <> 'ready'").get(), `kills after ${kills.join(', ')} ms`).not.toEqual({ n: 0 });
    } finally {
      unfinished.close();
    }

    server = await startChildServer({ TRASH_DAYS: '0' }, { dataDir });
    const { url } = server;
    const api = apiClient(url);
    // Uploading the same photos again at once: each answer comes once its image can be seen.
    const again = await upload(url, token, uploaded.flat());
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.results).toHaveLength(uploaded.flat().length);
    for (const result of again.body.results ?? []) {
      expect(result.status, `${result.fileName}: ${result.reason}`).not.toBe('refused');
      const image = await api.get<Image>(`/api/images/${result.imageId}`, token);
      expect(image.status, `${result.fileName} answered ${result.status} but is not visible`).toBe(200);
      expect(await load(url, image.body.thumbnailURL)).toBe(200);
      expect(await load(url, image.body.trimmedURL)).toBe(200);
    }
    // Whatever was answered before a crash (and not deleted since) is visible; nothing stays pending.
    await eventually(async () => {
      const db = new SQLite(dbFile, { readonly: true });
      try {
        expect(db.prepare("select id, status from media where status <> 'ready'").all()).toEqual([]);
      } finally {
        db.close();
      }
    }, 12_000);
    for (const [id, result] of answered) {
      if (deleted.has(id)) continue;
      expect((await api.get(`/api/images/${id}`, token)).status, `${result.fileName} (${id}), answered ${result.status}`).toBe(200);
    }
    const listed = (await api.get<{ images: Image[] }>('/api/gridimages', token)).body.images;
    // One image per distinct content: every re-upload is listed, none twice.
    const contents = new Set(uploaded.flat().map((file) => createHash('sha256').update(file.source as Buffer).digest('hex')));
    expect(listed).toHaveLength(contents.size);
    for (const image of listed) {
      expect(await load(url, image.thumbnailURL), `thumbnail of ${image.FileName}`).toBe(200);
      expect(await load(url, image.trimmedURL), `display image of ${image.FileName}`).toBe(200);
    }
    expect(await listFiles(path.join(dataDir, 'tmp'))).toEqual([]);

    // Deleting everything leaves no stored file behind (half-written ones of the killed processes included).
    const removed = await api.post('/api/deleteImages', { imageIds: listed.map((image) => image._id) }, token);
    expect(removed.status).toBe(200);
    await eventually(async () => {
      const left = (await listFiles(mediaDir)).filter((file) => file.startsWith('originals/') || file.startsWith('derived/'));
      expect(left).toEqual([]);
    }, 5_000);
    await server.stop();
    expect(integrityCheck(dbFile)).toBe('ok');
    const db = new SQLite(dbFile, { readonly: true });
    try {
      expect(db.prepare('select count(*) as n from media').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  }, 300_000); // ten kill -9 rounds of image work: 93 s alone on a slow hour of this VM, over 110 s beside the other test files
});

describe('two processes on one PostgreSQL database', () => {
  const dataDirs: string[] = [];
  const servers: ChildServer[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    for (const server of servers) await server.kill();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    await drop?.();
  });

  it('never takes a live process’s work, and takes a killed one’s at once', async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    const start = async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'photo-multi-'));
      dataDirs.push(dir);
      const server = await startChildServer({ DATABASE_URL: database.url, IMAGE_WORKERS: '1', TRASH_DAYS: '0' }, { dataDir: dir });
      servers.push(server);
      return server;
    };
    const a = await start();
    const b = await start();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const token = (await apiClient(a.url).post<{ token: string }>('/signup', newPerson('multi'))).body.token;
      const owners = async () =>
        (await client.query<{ claimed_by: string | null }>("select distinct claimed_by from media where status = 'pending'")).rows.map(
          (row) => row.claimed_by,
        );

      // A processes a batch while B looks for stalled work every few seconds: B takes nothing of A's.
      const first = upload(a.url, token, PHOTOS.slice(0, 8));
      const seen = new Set<string | null>();
      let done = false;
      first.then(
        () => (done = true),
        () => (done = true),
      );
      while (!done) {
        for (const owner of await owners()) seen.add(owner);
        await sleep(50);
      }
      expect((await first).body.results?.every((r) => r.status === 'kept')).toBe(true);
      expect([...seen]).toHaveLength(1);
      expect([...seen][0]).toBeTruthy();

      // A dies in the middle of the next batch: B (alive, same machine) finishes A's work at once.
      const second = upload(a.url, token, PHOTOS.slice(8)).catch(() => undefined);
      await eventually(async () => expect((await owners()).length).toBe(1), 10_000);
      await a.kill();
      await second;
      await eventually(async () => {
        expect((await client.query("select id from media where status <> 'ready'")).rows).toEqual([]);
      }, 10_000);
      const again = await upload(b.url, token, PHOTOS);
      expect(again.body.results?.map((r) => r.status).filter((status) => status === 'refused')).toEqual([]);
      for (const result of again.body.results ?? []) {
        expect((await apiClient(b.url).get(`/api/images/${result.imageId}`, token)).status, result.fileName).toBe(200);
      }
    } finally {
      await client.end();
    }
  }, 60_000);
});
