import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '@photo/contract';
import { tinyPng, upload } from './support/images.js';
import { useTwoProcesses, type SignedUp } from './support/two-processes.js';

/**
 * Issue 14, the PostgreSQL row (decision 0011): a cached read — a gallery page, tag suggestions,
 * the tag filter — costs one database round trip, the session check, which reads the library
 * version together with the account; and a cached answer is never older than the last change any
 * process committed. Two real app processes (A, B) on one PostgreSQL database and one S3 bucket;
 * B reaches the database through a relay that counts round trips on the wire (nothing in the app
 * is instrumented).
 */

interface GridPage {
  images: Image[];
  pagination: { totalImages: number };
}

const cluster = useTwoProcesses({ jwtSecret: 'cached-reads-test-secret-shared-by-every-process', countRoundTripsOnB: true });
const { A, B, signUp } = cluster;
let admin: SignedUp;
beforeAll(async () => {
  admin = await signUp(A(), 'admin');
});

/** Opens the newest confirmation link mailed (by A, where the account was made) to `email`, on A. */
async function confirmOnA(email: string): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const dir = path.join(cluster.a().dataDir, 'outbox');
    const tokens: string[] = [];
    for (const file of (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort()) {
      const mail = await simpleParser(await readFile(path.join(dir, file)));
      const token = /\/confirm-email\/([A-Za-z0-9_-]{20,128})/.exec(mail.text ?? '')?.[1];
      if (token && JSON.stringify(mail.to ?? '').toLowerCase().includes(email.toLowerCase())) tokens.push(token);
    }
    const token = tokens.at(-1);
    if (token) {
      expect((await A().post(`/api/address-proofs/${token}/confirm`, {})).status).toBe(200);
      return;
    }
    if (Date.now() > deadline) throw new Error(`no confirmation mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function uploadOnA(token: string, seed: number): Promise<string> {
  const res = await upload(cluster.a().url, token, [{ source: await tinyPng(seed), name: `cached-${seed}.png` }]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.results?.[0]?.imageId;
  expect(id, JSON.stringify(res.body)).toBeTruthy();
  return id ?? '';
}

const pageOnB = async (token: string) => {
  const res = await B().get<GridPage>('/api/gridimages?page=1&limit=50', token);
  expect(res.status).toBe(200);
  return res.body.images.map((image) => image._id);
};
const suggestionsOnB = async (token: string, query: string) => {
  const res = await B().get<string[]>(`/api/search/suggestions?query=${encodeURIComponent(query)}`, token);
  expect(res.status).toBe(200);
  return res.body;
};
const filterOnB = async (token: string, tags: string[]) => {
  const res = await B().post<{ images?: Image[] }>('/api/headerSearchTags', { query: tags }, token);
  expect(res.status).toBe(200);
  return (res.body.images ?? []).map((image) => image._id);
};

/** The round trips B made for each of `times` calls (after two that fill its caches), and the statements it parsed. */
async function wireCountsOf(call: () => Promise<unknown>, times = 7): Promise<{ roundTrips: number[]; parses: number[] }> {
  await call();
  await call();
  const roundTrips: number[] = [];
  const parses: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const before = cluster.relay().count();
    const parsedBefore = cluster.relay().parses();
    await call();
    roundTrips.push(cluster.relay().count() - before);
    parses.push(cluster.relay().parses() - parsedBefore);
  }
  return { roundTrips, parses };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

describe('cached reads on PostgreSQL, two app processes', () => {
  it('a cached gallery page, tag suggestions and tag filter cost one round trip each', async () => {
    const recipient = await signUp(A(), 'recipient');
    await confirmOnA(recipient.email);
    const ids = [await uploadOnA(admin.token, 11), await uploadOnA(admin.token, 12)];
    expect((await A().post('/add-tags', { imageIds: ids, tags: ['harbour'] }, admin.token)).status).toBe(200);
    expect((await A().post('/api/share-restricted', { imageIds: [ids[0]], emails: [recipient.email] }, admin.token)).status).toBe(200);

    // The admin sees the whole library; the recipient's view is one shared photo (its own scope).
    for (const viewer of [admin, recipient]) {
      const calls = {
        'gallery page': () => pageOnB(viewer.token),
        'tag suggestions': () => suggestionsOnB(viewer.token, 'ha'),
        'tag filter': () => filterOnB(viewer.token, ['harbour']),
      };
      expect(await suggestionsOnB(viewer.token, 'ha')).toEqual(['harbour']);
      expect((await filterOnB(viewer.token, ['harbour'])).length).toBe(viewer === admin ? 2 : 1);
      for (const [name, call] of Object.entries(calls)) {
        const { roundTrips: counts, parses } = await wireCountsOf(call);
        const who = `${name} as ${viewer === admin ? 'the admin' : 'a share recipient'}`;
        // Background work of B's (its processing sweep) may land in one measurement; the median may not.
        expect(median(counts), `${who}: round trips per call ${counts.join(', ')}`).toBe(1);
        // The session check is a statement prepared once per connection (decision 0041): not parsed again.
        expect(median(parses), `${who}: statements parsed per call ${parses.join(', ')}`).toBe(0);
      }
    }
  });

  it('calls arriving together share one session check, and each is answered as its own account', async () => {
    // auth/batched-session-reads.ts: the checks of one turn go to PostgreSQL as one statement.
    const stranger = await signUp(A(), 'together');
    const revoked = await signUp(A(), 'revoked');
    const shown = await pageOnB(admin.token);
    expect(shown.length).toBeGreaterThan(0);
    for (const person of [stranger, revoked]) {
      expect(await pageOnB(person.token)).toEqual([]);
      expect(await pageOnB(person.token)).toEqual([]);
    }
    // Revoked behind both processes' backs, straight in the database: seen by the next check.
    const client = new pg.Client({ connectionString: cluster.database().url });
    await client.connect();
    try {
      await client.query('update users set token_version = token_version + 1 where email = $1', [revoked.email]);
    } finally {
      await client.end();
    }
    const asks = Array.from({ length: 45 }, (_, i) => [admin, stranger, revoked][i % 3] as SignedUp);
    const before = cluster.relay().count();
    const answers = await Promise.all(asks.map((person) => B().get<GridPage>('/api/gridimages?page=1&limit=50', person.token)));
    const roundTrips = cluster.relay().count() - before;
    answers.forEach((res, i) => {
      const person = asks[i];
      if (person === revoked) return expect(res.status, 'the revoked token').toBe(401);
      expect(res.status).toBe(200);
      expect(res.body.images.map((image) => image._id)).toEqual(person === admin ? shown : []);
    });
    // One round trip each without the batches (every answer here is a cached page).
    expect(roundTrips, `round trips for ${asks.length} calls at once`).toBeLessThan(asks.length);
  });

  it("what A changes is in B's cached answers on the very next call", async () => {
    const id = await uploadOnA(admin.token, 21);
    const recipient = await signUp(A(), 'later');

    // B has answered (and cached) each read before every change on A below.
    expect(await pageOnB(admin.token)).toContain(id);
    expect(await suggestionsOnB(admin.token, 'moo')).toEqual([]);
    expect(await filterOnB(admin.token, ['moorland'])).toEqual([]);

    expect((await A().post('/add-tags', { imageIds: [id], tags: ['moorland'] }, admin.token)).status).toBe(200);
    expect(await suggestionsOnB(admin.token, 'moo'), 'a tag added on A').toEqual(['moorland']);
    expect(await filterOnB(admin.token, ['moorland'])).toEqual([id]);

    expect((await A().post('/api/deleteImages', { imageIds: [id] }, admin.token)).status).toBe(200);
    expect(await pageOnB(admin.token), 'an image put in the Trash on A').not.toContain(id);
    expect(await filterOnB(admin.token, ['moorland'])).toEqual([]);
    expect(await suggestionsOnB(admin.token, 'moo')).toEqual([]);

    expect((await A().post('/api/trash/restore', { imageIds: [id] }, admin.token)).status).toBe(200);
    expect(await pageOnB(admin.token), 'restored on A').toContain(id);
    expect(await filterOnB(admin.token, ['moorland'])).toEqual([id]);

    // A share to an address not yet proven reaches the account the moment the proof is opened (on A).
    expect((await A().post('/api/share-restricted', { imageIds: [id], emails: [recipient.email] }, admin.token)).status).toBe(200);
    expect(await pageOnB(recipient.token)).toEqual([]);
    expect(await suggestionsOnB(recipient.token, 'moo')).toEqual([]);
    await confirmOnA(recipient.email);
    expect(await pageOnB(recipient.token), 'the address proven on A').toEqual([id]);
    expect(await suggestionsOnB(recipient.token, 'moo')).toEqual(['moorland']);
    expect(await filterOnB(recipient.token, ['moorland'])).toEqual([id]);

    const records = await A().get<{ restrictedAccessUserData: { _id: string; accessTo: string }[] }>('/getUserAccessData', admin.token);
    const record = records.body.restrictedAccessUserData.find((r) => r.accessTo === recipient.email);
    expect(record).toBeDefined();
    expect((await A().put(`/updateUserStatus/${record?._id}`, { status: false, type: 'restrictedAccess' }, admin.token)).status).toBe(200);
    expect(await pageOnB(recipient.token), 'the share switched off on A').toEqual([]);
    expect(await suggestionsOnB(recipient.token, 'moo')).toEqual([]);
    expect(await filterOnB(recipient.token, ['moorland'])).toEqual([]);
  });

  it("a like, a tag, a tag removed or renamed on A is on B's cards on the very next call (decision 0014)", async () => {
    const id = await uploadOnA(admin.token, 31);
    const cardOnB = async (token: string) => {
      const res = await B().get<GridPage>('/api/gridimages?page=1&limit=50', token);
      expect(res.status).toBe(200);
      const image = res.body.images.find((candidate) => candidate._id === id);
      expect(image).toBeDefined();
      const detail = await B().get<Image>(`/api/images/${id}`, token);
      expect(detail.status).toBe(200);
      // The page and the detail read the same card: both show every change.
      expect({ likes: detail.body.likes, liked: detail.body.liked, tags: detail.body.tags }).toEqual({ likes: image?.likes, liked: image?.liked, tags: image?.tags });
      return { likes: image?.likes, liked: image?.liked, tags: image?.tags };
    };
    const other = await signUp(A(), 'liker');
    await confirmOnA(other.email);
    expect((await A().post('/api/share-all', { accessTo: [other.email] }, admin.token)).status).toBe(200);

    // B has read (and kept) the card before every change on A below.
    expect(await cardOnB(admin.token)).toEqual({ likes: 0, liked: false, tags: [] });
    expect(await cardOnB(other.token)).toEqual({ likes: 0, liked: false, tags: [] });

    expect((await A().post(`/images/${id}/like`, { liked: true }, other.token)).status).toBe(200);
    expect(await cardOnB(admin.token), 'liked on A by someone else').toEqual({ likes: 1, liked: false, tags: [] });
    expect(await cardOnB(other.token), 'liked on A by this person').toEqual({ likes: 1, liked: true, tags: [] });

    expect((await A().post(`/images/${id}/addTag`, { tag: 'lighthouse' }, admin.token)).status).toBe(200);
    expect(await cardOnB(other.token), 'tagged on A').toEqual({ likes: 1, liked: true, tags: ['lighthouse'] });

    expect((await A().put('/admin/update-tag', { oldTagValue: 'lighthouse', newTagValue: 'beacon' }, admin.token)).status).toBe(200);
    expect(await cardOnB(other.token), 'the tag renamed on A').toEqual({ likes: 1, liked: true, tags: ['beacon'] });

    expect((await A().post('/remove-tag', { imageId: id, tagName: ['beacon'] }, admin.token)).status).toBe(200);
    expect((await A().post(`/images/${id}/like`, { liked: false }, other.token)).status).toBe(200);
    expect(await cardOnB(other.token), 'the tag removed and the like taken back on A').toEqual({ likes: 0, liked: false, tags: [] });
  });
});
