import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressProof, Image } from '@photo/contract';
import { latestProofTokenFor, outboxMailsTo, signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testDatabases } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { tinyPng, upload } from './support/images.js';
import { ManualClock, startTestServer, type TestServer } from './support/test-server.js';

interface GridPage {
  images: Image[];
  pagination: { totalImages: number };
}

/**
 * Decision 0006: a share reaches an account only once the account has proven it owns the address,
 * by opening a link mailed to it (the confirmation mail, or any share mail). Each attack below is
 * tried as written in the issue, asserting the refusal and that nothing changed.
 */
describe.each(testDatabases)('proven addresses on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let admin: SignedUpPerson;
  let owner: SignedUpPerson;
  let adminIds: string[];
  let ownerIds: string[];
  let seed = 0;
  const clock = new ManualClock();

  async function uploadTiny(token: string, count: number): Promise<string[]> {
    const files = await Promise.all(Array.from({ length: count }, async () => ({ source: await tinyPng(7000 + seed++), name: `a-${seed}.png` })));
    const res = await upload(server.url, token, files);
    expect(res.status).toBe(200);
    return (res.body.results ?? []).map((r) => r.imageId ?? '').sort((a, b) => Number(b) - Number(a));
  }
  /** A plain sign-up, as a stranger would make it: nothing is confirmed. */
  async function signUpUnconfirmed(email?: string) {
    const person = newPerson('stranger');
    if (email) person.email = email;
    const res = await api.post<{ token: string }>('/signup', person);
    expect(res.status).toBe(201);
    return { ...person, token: res.body.token };
  }
  const galleryIds = async (token: string) => (await api.get<GridPage>('/api/gridimages?page=1&limit=200', token)).body.images.map((i) => i._id);
  const me = async (token: string) => (await api.get<{ email: string; emailConfirmed: boolean }>('/api/users/me', token)).body;
  const proof = (token: string) => api.get<AddressProof>(`/api/address-proofs/${token}`);
  const confirm = (token: string) => api.post<{ message: string; email: string; next: string }>(`/api/address-proofs/${token}/confirm`, {});
  /** What an account can reach of what was shared with it, through every shared view. */
  async function sharedReach(token: string) {
    const withMe = await api.get<{ hasAccess: boolean; userAccessData: Image[] }>('/sharedWithMe', token);
    const images = await api.get<{ images: Image[] }>('/shared-images', token);
    return { gallery: await galleryIds(token), hasAccess: withMe.body.hasAccess, userAccessData: withMe.body.userAccessData.length, sharedImages: images.body.images.length };
  }
  const nothingShared = (ownIds: string[] = []) => ({ gallery: ownIds, hasAccess: false, userAccessData: 0, sharedImages: 0 });

  beforeAll(async () => {
    server = await startTestServer(database, { clock });
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    owner = await signUpConfirmed(server, api, { prefix: 'owner' });
    adminIds = await uploadTiny(admin.token, 2);
    ownerIds = await uploadTiny(owner.token, 3);
  }, 60_000);
  afterAll(async () => server?.close());

  it('confirms the first account (the admin) at sign-up, mailing it nothing', async () => {
    expect(await me(admin.token)).toEqual({ ...(await me(admin.token)), emailConfirmed: true });
    expect((await outboxMailsTo(server, admin.email)).filter((m) => m.subject.includes('Confirm'))).toEqual([]);
  });

  it('a stranger signing up with an all-access address sees nothing shared, until the address is proven', async () => {
    const grandma = newPerson('grandma').email;
    expect((await api.post('/api/share-all', { accessTo: [grandma] }, admin.token)).status).toBe(200);
    const stranger = await signUpUnconfirmed(grandma);
    expect(await me(stranger.token)).toMatchObject({ email: grandma, emailConfirmed: false });
    expect(await sharedReach(stranger.token)).toEqual(nothingShared());
    expect((await api.get(`/api/images/${adminIds[0]}`, stranger.token)).status).toBe(404);
    expect((await api.post(`/images/${adminIds[0]}/like`, { liked: true }, stranger.token)).status).toBe(404);
    expect((await api.get(`/api/search?query=a-`, stranger.token)).status).not.toBe(500);
    // The sign-up mailed a confirmation link to the address: only its real owner can open it.
    const mails = await outboxMailsTo(server, grandma);
    expect(mails.map((m) => m.subject)).toContain('Confirm your e-mail address for Photo Library');
    // A share sent to the address later does not reach the unproven account either.
    expect((await api.post('/api/share-restricted', { imageIds: [ownerIds[0]], emails: [grandma] }, owner.token)).status).toBe(200);
    expect(await sharedReach(stranger.token)).toEqual(nothingShared());
  });

  it('a restricted share does not reach an unproven account; opening the mailed link makes it appear at once', async () => {
    const carol = await signUpUnconfirmed();
    expect((await api.post('/api/share-restricted', { imageIds: [ownerIds[1]], emails: [carol.email] }, owner.token)).status).toBe(200);
    expect(await sharedReach(carol.token)).toEqual(nothingShared());
    expect((await api.get(`/api/images/${ownerIds[1]}`, carol.token)).status).toBe(404);
    // The share mail's link proves the address: opened in any browser, signed in or not.
    const shareMail = (await outboxMailsTo(server, carol.email)).at(-1)!;
    const token = /\/confirm-email\/([A-Za-z0-9_-]+)/.exec(shareMail.text)![1]!;
    expect(token.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    expect((await proof(token)).body).toMatchObject({ email: carol.email, state: 'pending', next: '/sharedMedia', account: { username: carol.username } });
    const done = await confirm(token);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: `Your address ${carol.email} is confirmed.`, email: carol.email, next: '/sharedMedia' });
    expect(await me(carol.token)).toMatchObject({ emailConfirmed: true });
    expect(await galleryIds(carol.token)).toEqual([ownerIds[1]]);
    expect((await api.get(`/api/images/${ownerIds[1]}`, carol.token)).status).toBe(200);
    // Opened again, the link says where things stand; it cannot be used for anything else.
    expect((await confirm(token)).status).toBe(200);
    expect((await proof(token)).body.state).toBe('confirmed');
  });

  it('the confirmation mail of sign-up confirms the account; its link works once', async () => {
    const dan = await signUpUnconfirmed();
    const token = await latestProofTokenFor(server, dan.email);
    expect((await proof(token)).body).toMatchObject({ state: 'pending', next: '/' });
    expect((await confirm(token)).status).toBe(200);
    expect(await me(dan.token)).toMatchObject({ emailConfirmed: true });
  });

  it('keeps only hashes of the links, never the tokens', async () => {
    const erin = await signUpUnconfirmed();
    const token = await latestProofTokenFor(server, erin.email);
    const hash = createHash('sha256').update(token).digest('hex');
    expect(await server.rows('select email from address_proofs where token_hash = ?', [token])).toEqual([]);
    expect(await server.rows('select email from address_proofs where token_hash = ?', [hash])).toEqual([{ email: erin.email }]);
    expect((await confirm(token)).status).toBe(200);
  });

  it('a share mail to an address without an account leads to sign-up, which confirms it on completion', async () => {
    const frank = newPerson('frank');
    expect((await api.post('/api/share-restricted', { imageIds: [ownerIds[2]], emails: [frank.email] }, owner.token)).status).toBe(200);
    const token = await latestProofTokenFor(server, frank.email);
    expect((await proof(token)).body).toEqual({ email: frank.email, state: 'signup', account: null, next: '/sharedMedia' });
    // Nothing to confirm yet; the link is not used up by trying.
    const early = await confirm(token);
    expect(early.status).toBe(409);
    expect((await proof(token)).body.state).toBe('signup');
    const res = await api.post<{ token: string }>('/signup', { ...frank, proof: token });
    expect(res.status).toBe(201);
    expect(await me(res.body.token)).toMatchObject({ emailConfirmed: true });
    expect(await galleryIds(res.body.token)).toEqual([ownerIds[2]]);
    // Confirmed by the proof: no confirmation mail was sent.
    expect((await outboxMailsTo(server, frank.email)).map((m) => m.subject)).not.toContain('Confirm your e-mail address for Photo Library');
  });

  it('a proof mailed to one address does not confirm an account with another', async () => {
    const gina = newPerson('gina');
    expect((await api.post('/api/share-restricted', { imageIds: [ownerIds[0]], emails: [gina.email] }, owner.token)).status).toBe(200);
    const token = await latestProofTokenFor(server, gina.email);
    const other = newPerson('other');
    const res = await api.post<{ token: string }>('/signup', { ...other, proof: token });
    expect(res.status).toBe(201);
    expect(await me(res.body.token)).toMatchObject({ emailConfirmed: false });
    expect(await galleryIds(res.body.token)).toEqual([]);
    // The proof is still Gina's to use.
    expect((await proof(token)).body.state).toBe('signup');
  });

  it("lets the address's owner take it back from an account someone else created with it", async () => {
    const hal = newPerson('hal').email;
    const squatter = await signUpUnconfirmed(hal);
    expect((await api.post('/api/share-restricted', { imageIds: [ownerIds[0]], emails: [hal] }, owner.token)).status).toBe(200);
    const token = await latestProofTokenFor(server, hal);
    expect((await proof(token)).body).toMatchObject({ state: 'pending', account: { username: squatter.username } });
    const released = await api.post<{ message: string }>(`/api/address-proofs/${token}/release`, {});
    expect(released.status).toBe(200);
    // The squatter's session and sign-in are gone; the address is free for its owner.
    expect((await api.get('/api/users/me', squatter.token)).status).toBe(401);
    expect((await api.post('/signin', { email: hal, password: squatter.password })).status).toBe(401);
    expect((await proof(token)).body.state).toBe('signup');
    const owned = await api.post<{ token: string }>('/signup', { ...newPerson('hal'), email: hal, proof: token });
    expect(owned.status).toBe(201);
    expect(await galleryIds(owned.body.token)).toEqual([ownerIds[0]]);
    // A confirmed account cannot be released.
    const again = await api.post(`/api/address-proofs/${token}/release`, {});
    expect(again.status).toBe(404);
  });

  it('refuses unknown, malformed and expired links with a clear 404 or 400', async () => {
    expect((await proof('A'.repeat(43))).status).toBe(404);
    expect((await confirm('A'.repeat(43))).body.message).toMatch(/not valid any more/);
    expect((await proof('bad token!')).status).toBe(400);
    const ivy = await signUpUnconfirmed();
    const token = await latestProofTokenFor(server, ivy.email);
    clock.advance(8 * 86_400_000);
    try {
      expect((await proof(token)).status).toBe(404);
      expect((await confirm(token)).status).toBe(404);
      expect(await me(ivy.token)).toMatchObject({ emailConfirmed: false });
    } finally {
      clock.advance(-8 * 86_400_000);
    }
  });

  it('resends the confirmation link a few times an hour, and not to a confirmed account', async () => {
    const jo = await signUpUnconfirmed();
    const before = (await outboxMailsTo(server, jo.email)).length;
    const res = await api.post<{ message: string }>('/api/address-confirmation/resend', {}, jo.token);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(`We sent a new confirmation link to ${jo.email}.`);
    expect((await outboxMailsTo(server, jo.email)).length).toBe(before + 1);
    for (let i = 0; i < 4; i += 1) expect((await api.post('/api/address-confirmation/resend', {}, jo.token)).status).toBe(200);
    const over = await api.post<{ message: string }>('/api/address-confirmation/resend', {}, jo.token);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    const confirmed = await api.post<{ message: string }>('/api/address-confirmation/resend', {}, owner.token);
    expect(confirmed.body.message).toBe(`Your address ${owner.email} is already confirmed.`);
    expect((await api.post('/api/address-confirmation/resend', {})).status).toBe(401);
  });
});

describe.each(testDatabases)('re-sharing never revives the past on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let admin: SignedUpPerson;
  let owner: SignedUpPerson;
  let ownerIds: string[];

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    owner = await signUpConfirmed(server, api, { prefix: 'owner' });
    const files = await Promise.all([0, 1, 2].map(async (i) => ({ source: await tinyPng(9100 + i), name: `r-${i}.png` })));
    ownerIds = ((await upload(server.url, owner.token, files)).body.results ?? []).map((r) => r.imageId!).sort((a, b) => Number(b) - Number(a));
  }, 60_000);
  afterAll(async () => server?.close());

  const accessData = async (token: string) =>
    (await api.get<{ allAccessUserData: { _id: string; accessTo: string }[]; restrictedAccessUserData: { _id: string; accessTo: string }[] }>('/getUserAccessData', token)).body;
  const linkPage = (link: string) => api.get<{ images: Image[] }>(`/shared-images/${link.split('/share-all/')[1]}`);

  it('an all-access link switched off stays dead when the recipient is shared with again or switched back on', async () => {
    const kim = await signUpConfirmed(server, api, { prefix: 'kim' });
    const first = (await api.post<{ link: string }>('/api/share-all', { accessTo: [kim.email] }, admin.token)).body.link;
    expect((await linkPage(first)).status).toBe(200);
    const record = (await accessData(admin.token)).allAccessUserData.find((r) => r.accessTo === kim.email)!;
    expect((await api.put(`/updateUserStatus/${record._id}`, { status: false, type: 'allAccess' }, admin.token)).status).toBe(200);
    expect((await linkPage(first)).status).toBe(404);

    const second = (await api.post<{ link: string }>('/api/share-all', { accessTo: [kim.email] }, admin.token)).body.link;
    expect(second).not.toBe(first);
    expect((await linkPage(first)).status).toBe(404);
    expect((await linkPage(second)).status).toBe(200);

    // Off, then on again with the toggle: a new link, mailed to the recipient; both old ones stay dead.
    expect((await api.put(`/updateUserStatus/${record._id}`, { status: false, type: 'allAccess' }, admin.token)).status).toBe(200);
    expect((await api.put(`/updateUserStatus/${record._id}`, { status: true, type: 'allAccess' }, admin.token)).status).toBe(200);
    expect((await linkPage(second)).status).toBe(404);
    expect((await linkPage(first)).status).toBe(404);
    const mailed = (await outboxMailsTo(server, kim.email)).at(-1)!;
    const third = /(https?:\/\/\S+\/share-all\/[A-Za-z0-9_-]+)/.exec(mailed.text)![1]!;
    expect(third).not.toBe(second);
    expect((await linkPage(third)).status).toBe(200);
    // Kim is confirmed, so the mailed link carries no proof.
    expect(mailed.text).not.toContain('?confirm=');
  });

  it('a repeated share gives a new link and the old one dies', async () => {
    const lee = newPerson('lee').email;
    const first = (await api.post<{ link: string }>('/api/share-all', { accessTo: [lee] }, admin.token)).body.link;
    const second = (await api.post<{ link: string }>('/api/share-all', { accessTo: [lee] }, admin.token)).body.link;
    expect(second).not.toBe(first);
    expect((await linkPage(first)).status).toBe(404);
    expect((await linkPage(second)).status).toBe(200);
    // The sharer is shown the bare link; the recipient's mail also proves the address.
    expect(second).not.toContain('confirm=');
    const mailed = (await outboxMailsTo(server, lee)).at(-1)!;
    expect(mailed.text).toContain(`${second}?confirm=`);
  });

  it('a restricted share switched off and shared again covers only what the new share names', async () => {
    const max = await signUpConfirmed(server, api, { prefix: 'max' });
    const share = (ids: string[]) => api.post('/api/share-restricted', { imageIds: ids, emails: [max.email] }, owner.token);
    // Which photos Max sees (in id order: their gallery order is timeline.test.ts's).
    const gallery = async () =>
      (await api.get<GridPage>('/api/gridimages?page=1&limit=50', max.token)).body.images.map((i) => i._id).sort((a, b) => Number(b) - Number(a));
    expect((await share([ownerIds[0]!, ownerIds[1]!])).status).toBe(200);
    expect(await gallery()).toEqual([ownerIds[0], ownerIds[1]]);
    const record = (await accessData(owner.token)).restrictedAccessUserData.find((r) => r.accessTo === max.email)!;
    expect((await api.put(`/updateUserStatus/${record._id}`, { status: false, type: 'restrictedAccess' }, owner.token)).status).toBe(200);
    expect(await gallery()).toEqual([]);
    expect((await share([ownerIds[2]!])).status).toBe(200);
    expect(await gallery()).toEqual([ownerIds[2]]);
    // While active, sharing more adds to it.
    expect((await share([ownerIds[1]!])).status).toBe(200);
    expect(await gallery()).toEqual([ownerIds[1], ownerIds[2]]);
  });
});
