import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '@photo/contract';
import { S3Storage } from '../src/storage/s3-storage.js';
import { UrlSigner } from '../src/storage/url-signer.js';
import type { ChildServer } from './support/child-server.js';
import { apiClient, nextClientIp, type ApiClient } from './support/http.js';
import { TESTDATA, tinyPng, upload } from './support/images.js';
import { useTwoProcesses, type SignedUp } from './support/two-processes.js';

/**
 * README "Scaling out": several app processes with the same DATABASE_URL, S3_*, JWT_SECRET and
 * PUBLIC_URL behave as one app. Two real processes (A and B) on one PostgreSQL database and one S3
 * bucket, called on their own ports, as a load balancer would send one person's calls to either.
 */

const JWT_SECRET = 'cluster-test-secret-shared-by-every-process';
/** How long B may take to finish what a killed A left half done. */
const TAKEOVER_TIMEOUT_MS = 60_000;

const cluster = useTwoProcesses({ jwtSecret: JWT_SECRET });
const { A, B, signUp } = cluster;
type Person = SignedUp;
interface GridPage {
  images: Image[];
  pagination: { totalImages: number };
}

/** The first account, signed up on A: the admin. */
let admin: Person;
beforeAll(async () => {
  admin = await signUp(A(), 'admin');
});

/** The newest link token of the given kind in mail to `email`, from any of the processes' outboxes. */
async function mailedToken(servers: ChildServer[], email: string, link: RegExp): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found: { date: number; token: string }[] = [];
    for (const server of servers) {
      const dir = path.join(server.dataDir, 'outbox');
      const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
      for (const file of files) {
        const mail = await simpleParser(await readFile(path.join(dir, file)));
        const token = link.exec(mail.text ?? '')?.[1];
        if (token && JSON.stringify(mail.to ?? '').toLowerCase().includes(email.toLowerCase())) {
          found.push({ date: mail.date?.getTime() ?? 0, token });
        }
      }
    }
    const newest = found.sort((x, y) => x.date - y.date).at(-1);
    if (newest) return newest.token;
    if (Date.now() > deadline) throw new Error(`no mail to ${email} with a link like ${link}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const CONFIRM_LINK = /\/confirm-email\/([A-Za-z0-9_-]{20,128})/;
const RESET_LINK = /\/reset-password\/([A-Za-z0-9_-]{20,128})/;

const gallery = async (api: ApiClient, token: string) => {
  const res = await api.get<GridPage>('/api/gridimages?page=1&limit=50', token);
  expect(res.status).toBe(200);
  return res.body;
};
const galleryIds = async (api: ApiClient, token: string) => (await gallery(api, token)).images.map((i) => i._id);

async function uploadTiny(api: { url: string }, token: string, seed: number): Promise<string> {
  const res = await upload(api.url, token, [{ source: await tinyPng(seed), name: `cluster-${seed}.png` }]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results?.[0]?.imageId ?? '';
}

/** The bytes of a photo URL (as the API hands it out: a path) loaded from `server`. */
async function load(server: ChildServer, url: string | null): Promise<{ status: number; bytes: Buffer }> {
  expect(url).toBeTruthy();
  const res = await fetch(new URL(url ?? '', server.url));
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('two app processes on one database and one bucket', () => {
  it('a session from A works on B; a password reset on B ends it on A', async () => {
    const me = await B().get<{ role: string }>('/api/users/me', admin.token);
    expect(me.status).toBe(200);
    expect(me.body.role, 'the first account is the admin, seen by both').toBe('admin');

    const person = await signUp(A(), 'resetter');
    expect((await B().get('/api/profile', person.token)).status).toBe(200);
    expect((await A().get('/api/profile', person.token)).status).toBe(200); // A has seen (and may keep) this token

    expect((await B().post('/forgot-password', { email: person.email })).status).toBe(200);
    const resetToken = await mailedToken([cluster.b()], person.email, RESET_LINK);
    expect((await B().post('/reset-password', { token: resetToken, newPassword: 'a-brand-new-password' })).status).toBe(200);

    expect((await A().get('/api/profile', person.token)).status, 'the old session must end on A too').toBe(401);
    expect((await B().get('/api/profile', person.token)).status).toBe(401);
    const signIn = await A().post<{ token: string }>('/signin', { email: person.email, password: 'a-brand-new-password' });
    expect(signIn.status).toBe(200);
    expect((await B().get('/api/profile', signIn.body.token)).status).toBe(200);
  });

  it("an upload on A is in B's gallery at once, and each process serves the other's photo URLs", async () => {
    const uploader = await signUp(A(), 'uploader');
    const first = await uploadTiny(cluster.a(), uploader.token, 101);
    // B reads the gallery (and caches it: the id lists and the serialized page) before each upload on A.
    for (const [seed, viewer] of [[102, uploader], [103, admin]] as const) {
      const before = await gallery(B(), viewer.token);
      const id = await uploadTiny(cluster.a(), uploader.token, seed);
      const after = await gallery(B(), viewer.token);
      expect(after.images[0]?._id, "B's gallery must show A's upload at once").toBe(id);
      expect(after.pagination.totalImages).toBe(before.pagination.totalImages + 1);
    }
    expect(await galleryIds(B(), uploader.token)).toContain(first);

    const fromB = (await gallery(B(), uploader.token)).images[0];
    const fromA = (await gallery(A(), uploader.token)).images[0];
    const [a, b] = [cluster.a(), cluster.b()];
    for (const [url, server] of [
      [fromB?.thumbnailURL, a], [fromB?.trimmedURL, a], [fromA?.thumbnailURL, b], [fromA?.trimmedURL, b],
    ] as const) {
      const loaded = await load(server, url ?? null);
      expect(loaded.status, `${url} from the other process`).toBe(200);
      expect(loaded.bytes.length).toBeGreaterThan(0);
      expect(loaded.bytes.equals((await load(server === a ? b : a, url ?? null)).bytes)).toBe(true);
    }
  });

  it('sign-in limits count attempts on both processes together', async () => {
    const person = await signUp(A(), 'guessed');
    const client = nextClientIp();
    const from = (server: ChildServer) => apiClient(server.url, { 'x-forwarded-for': client });
    // 10 wrong passwords per account and client are allowed; five reach each process.
    for (let i = 0; i < 10; i += 1) {
      const res = await from(i % 2 ? cluster.b() : cluster.a()).post('/signin', { email: person.email, password: `wrong-${i}` });
      expect(res.status, `attempt ${i + 1}`).toBe(401);
    }
    expect((await from(cluster.a()).post('/signin', { email: person.email, password: 'wrong-again' })).status).toBe(429);
    expect((await from(cluster.b()).post('/signin', { email: person.email, password: 'wrong-again' })).status).toBe(429);
    expect((await from(cluster.b()).post('/signin', { email: person.email, password: person.password })).status, 'the limit holds even for the right password').toBe(429);
  });

  it('switching a share off on A hides the photo on B at once, URLs included', async () => {
    const owner = await signUp(A(), 'owner');
    const recipient = await signUp(B(), 'recipient');
    // The confirmation mail came from B (where the account was made); the link is opened on A.
    const proof = await mailedToken([cluster.a(), cluster.b()], recipient.email, CONFIRM_LINK);
    expect((await A().post(`/api/address-proofs/${proof}/confirm`, {})).status).toBe(200);

    const id = await uploadTiny(cluster.a(), owner.token, 201);
    expect((await A().post('/api/share-restricted', { imageIds: [id], emails: [recipient.email] }, owner.token)).status).toBe(200);

    // B serves the shared photo, and caches what it decided: the gallery, the detail, the URLs.
    expect(await galleryIds(B(), recipient.token)).toContain(id);
    const detail = await B().get<Image>(`/api/images/${id}`, recipient.token);
    expect(detail.status).toBe(200);
    const urls = [detail.body.thumbnailURL, detail.body.trimmedURL];
    for (const url of urls) {
      expect((await load(cluster.b(), url)).status).toBe(200);
      expect((await load(cluster.a(), url)).status).toBe(200);
    }

    const records = await A().get<{ restrictedAccessUserData: { _id: string; accessTo: string }[] }>('/getUserAccessData', owner.token);
    const record = records.body.restrictedAccessUserData.find((r) => r.accessTo === recipient.email);
    expect(record).toBeDefined();
    const off = await A().put(`/updateUserStatus/${record?._id}`, { status: false, type: 'restrictedAccess' }, owner.token);
    expect(off.status).toBe(200);

    expect(await galleryIds(B(), recipient.token), 'gone from the gallery on B').not.toContain(id);
    expect((await B().get(`/api/images/${id}`, recipient.token)).status).toBe(404);
    for (const url of urls) {
      expect((await load(cluster.b(), url)).status, `${url} on B`).toBe(404);
      expect((await load(cluster.a(), url)).status, `${url} on A`).toBe(404);
    }
  });

  // Last: A does not come back.
  it("a resumed upload reaching B while A still reads its first PATCH waits for A to stop, and the file arrives whole", async () => {
    const person = await signUp(A(), 'resume');
    // A photo no other test here uploads (the crash test below needs its photos new to the library).
    const file = await readFile(path.join(TESTDATA, 'camera/Canon PowerShot A85.jpg'));
    const headers = { 'tus-resumable': '1.0.0', authorization: `Bearer ${person.token}` };
    const created = await fetch(`${cluster.a().url}/api/uploads`, {
      method: 'POST',
      headers: { ...headers, 'upload-length': String(file.length), 'upload-metadata': `filename ${Buffer.from('resumed.jpg').toString('base64')}` },
    });
    expect(created.status, await created.text()).toBe(201);
    const id = created.headers.get('location')?.split('/').pop() ?? '';

    // On A, a PATCH sends a third of the file and goes quiet, its connection still open (the network
    // dropped it on the client's side): A goes on waiting for the rest.
    const stalled = http.request(`${cluster.a().url}/api/uploads/${id}`, {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(file.length) },
    });
    let stalledEndedAt = Number.POSITIVE_INFINITY;
    const stalledEnded = new Promise<void>((resolve) => {
      const ended = () => {
        stalledEndedAt = Math.min(stalledEndedAt, performance.now());
        resolve();
      };
      stalled.on('response', (res) => {
        res.resume();
        ended();
      });
      stalled.on('error', ended);
      stalled.on('close', ended);
    });
    await new Promise<void>((resolve) => stalled.write(file.subarray(0, 400_000), () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 300));

    try {
      // The client retries on B, as tus-js-client does: the offset (HEAD), then the rest from there.
      let outcome: { status?: string; imageId?: string } = {};
      let firstHeadAt: number | undefined;
      for (let attempt = 0; attempt < 5 && outcome.status === undefined; attempt += 1) {
        const head = await fetch(`${cluster.b().url}/api/uploads/${id}`, { method: 'HEAD', headers });
        firstHeadAt ??= performance.now();
        expect(head.status).toBe(200);
        const offset = Number(head.headers.get('upload-offset'));
        const rest = await fetch(`${cluster.b().url}/api/uploads/${id}`, {
          method: 'PATCH',
          headers: { ...headers, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
          body: file.subarray(offset),
        });
        if (rest.status === 200) outcome = (await rest.json()) as typeof outcome;
        else expect(rest.status, 'only a moved offset sends the client back to HEAD').toBe(409);
      }
      // B answered nothing while A's request could still write the upload: A was asked to stop and
      // let go first (without a lock shared by both, B answers at once and A stops only when its
      // body times out, seconds later).
      await stalledEnded;
      expect(stalledEndedAt - (firstHeadAt ?? 0), "B's HEAD was answered before A's PATCH ended").toBeLessThanOrEqual(50);
      expect(outcome.status).toBe('kept');

      // What was stored is exactly the file (its hash is the content's, computed as it was ingested).
      const db = new pg.Client({ connectionString: cluster.database().url });
      await db.connect();
      try {
        const { rows } = await db.query<{ content_hash: string; byte_size: string }>(
          'select m.content_hash, m.byte_size from images i join media m on m.id = i.media_id where i.id = $1',
          [Number(outcome.imageId)],
        );
        expect(rows[0]?.content_hash).toBe(createHash('sha256').update(file).digest('hex'));
        expect(Number(rows[0]?.byte_size)).toBe(file.length);
      } finally {
        await db.end();
      }
    } finally {
      stalled.destroy();
    }
  });

  it(
    'B finishes the uploads A was processing when it was killed',
    async () => {
      const uploader = await signUp(A(), 'crash');
      const files = [
        'large/canon-eos-5d-mark-iii-22mp.jpg',
        'large/Oppo R7 Plus.jpg',
        'large/Kodak PIXPRO FZ201.jpg',
        'formats/Nikon Coolpix P7000.webp',
        'camera/Apple iPhone 5.jpg',
        'camera/Samsung SM-J327T1.jpg',
      ].map((file) => ({ source: path.join(TESTDATA, file), name: path.basename(file) }));
      const db = new pg.Client({ connectionString: cluster.database().url });
      await db.connect();
      const storage = new S3Storage(cluster.s3().config, new UrlSigner(JWT_SECRET));
      try {
        const uploaderId = Number((await A().get<{ id: string }>('/api/profile', uploader.token)).body.id);
        const state = async () =>
          (
            await db.query<{ image_id: number; status: string; original_key: string }>(
              'select i.id as image_id, m.status, m.original_key from images i join media m on m.id = i.media_id where i.uploaded_by = $1 order by i.id',
              [uploaderId],
            )
          ).rows;

        // The upload's answer never comes: A dies under it.
        const uploading = upload(cluster.a().url, uploader.token, files).catch(() => undefined);
        // Kill A once its first photo is done (the others are being decoded) or after a short while.
        const killAt = Date.now() + 8_000;
        while (Date.now() < killAt && !(await state()).some((row) => row.status === 'ready')) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await cluster.a().kill();
        await uploading;

        const left = await state();
        // What A left half done and can be finished: pending, with the original already in the bucket.
        const resumable = [];
        for (const row of left) if (row.status === 'pending' && (await storage.exists(row.original_key))) resumable.push(row.image_id);
        expect(resumable.length, `A left no finishable work behind (state at the kill: ${JSON.stringify(left)})`).toBeGreaterThan(0);

        const deadline = Date.now() + TAKEOVER_TIMEOUT_MS;
        let visible: string[] = [];
        for (;;) {
          visible = await galleryIds(B(), uploader.token);
          if (resumable.every((id) => visible.includes(String(id)))) break;
          if (Date.now() > deadline) {
            throw new Error(
              `after ${TAKEOVER_TIMEOUT_MS / 1000} s B shows ${JSON.stringify(visible)}, not all of ${JSON.stringify(resumable)} ` +
                `that A left pending (now: ${JSON.stringify(await state())})`,
            );
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        // Finished for real: derived files stored and served, nothing of the upload left hidden.
        for (const id of resumable) {
          const image = await B().get<Image>(`/api/images/${id}`, uploader.token);
          expect(image.status).toBe(200);
          expect((await load(cluster.b(), image.body.thumbnailURL)).status).toBe(200);
        }
        expect((await state()).filter((row) => row.status !== 'ready'), 'no upload left pending for good').toEqual([]);
      } finally {
        await db.end();
        await storage.close();
      }
    },
    TAKEOVER_TIMEOUT_MS + 30_000,
  );
});
