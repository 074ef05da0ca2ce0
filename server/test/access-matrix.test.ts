import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '@photo/contract';
import { testDatabases } from './support/databases.js';
import { signUpConfirmed } from './support/accounts.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { tinyPng, upload } from './support/images.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/**
 * THE access matrix (DECISIONS §3): every kind of person against every action on one image,
 * asserting the answer and, when refused, that nothing changed.
 */
const actors = [
  'owner', 'admin', 'allAccess', 'restricted', 'inactiveRestricted', 'unconfirmedAllAccess', 'unconfirmedRestricted', 'stranger', 'noToken',
] as const;
type Actor = (typeof actors)[number];

/**
 * Who can see the image: everyone with an active share whose account has proven its address, the
 * uploader and admins. The unconfirmed actors signed up with a shared-to address but never opened a
 * link mailed to it (decision 0006): to them the share does not exist.
 */
const sees: Record<Actor, boolean> = {
  owner: true, admin: true, allAccess: true, restricted: true, inactiveRestricted: false,
  unconfirmedAllAccess: false, unconfirmedRestricted: false, stranger: false, noToken: false,
};
/** Deleting and selective sharing: the uploader or an admin. */
const manages: Record<Actor, boolean> = {
  owner: true, admin: true, allAccess: false, restricted: false, inactiveRestricted: false,
  unconfirmedAllAccess: false, unconfirmedRestricted: false, stranger: false, noToken: false,
};
const refusal = (actor: Actor) => (actor === 'noToken' ? 401 : 404);

describe.each(testDatabases)('access matrix on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  const tokens = {} as Record<Actor, string | undefined>;
  const emails = {} as Record<Actor, string>;
  let imageId: string;
  let seed = 0;

  async function signUp(actor: Actor): Promise<void> {
    if (actor.startsWith('unconfirmed')) {
      const person = newPerson(actor.toLowerCase());
      const res = await api.post<{ token: string }>('/signup', person);
      expect(res.status).toBe(201);
      tokens[actor] = res.body.token;
      emails[actor] = person.email;
      return;
    }
    const person = await signUpConfirmed(server, api, { prefix: actor.toLowerCase() });
    tokens[actor] = person.token;
    emails[actor] = person.email;
  }
  async function uploadOne(token: string): Promise<string> {
    const res = await upload(server.url, token, [{ source: await tinyPng(3000 + seed++), name: `matrix-${seed}.png` }]);
    const id = res.body.results?.[0]?.imageId;
    expect(id).toBeDefined();
    return id!;
  }
  const ownerToken = () => tokens.owner!;
  const likeCount = async (id: string) => (await api.get<{ likeCount: number }>(`/images/${id}/like-status`, ownerToken())).body.likeCount;
  const tagsOf = async (id: string) => (await api.get<Image>(`/api/images/${id}`, ownerToken())).body.tags;
  const exists = async (id: string) => (await api.get(`/api/images/${id}`, ownerToken())).status === 200;
  const accessRecords = async (token: string | undefined) => (token ? (await api.get('/getUserAccessData', token)).body : null);

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    await signUp('admin'); // first account: admin
    for (const actor of actors.filter((a) => a !== 'admin' && a !== 'noToken')) await signUp(actor);
    imageId = await uploadOne(ownerToken());
    await uploadOne(tokens.stranger!); // something else in the library
    const allAccess = { accessTo: [emails.allAccess, emails.unconfirmedAllAccess] };
    expect((await api.post('/api/share-all', allAccess, tokens.admin)).status).toBe(200);
    const restricted = { imageIds: [imageId], emails: [emails.restricted, emails.inactiveRestricted, emails.unconfirmedRestricted] };
    expect((await api.post('/api/share-restricted', restricted, ownerToken())).status).toBe(200);
    const records = (await api.get<{ restrictedAccessUserData: { _id: string; accessTo: string }[] }>('/getUserAccessData', ownerToken())).body;
    const inactive = records.restrictedAccessUserData.find((r) => r.accessTo === emails.inactiveRestricted)!;
    const off = await api.put(`/updateUserStatus/${inactive._id}`, { status: false, type: 'restrictedAccess' }, ownerToken());
    expect(off.status).toBe(200);
  }, 60_000);
  afterAll(async () => server?.close());

  describe.each(actors)('%s', (actor) => {
    it(`view: ${sees[actor] ? 'sees it' : 'refused'}`, async () => {
      const res = await api.get<Image>(`/api/images/${imageId}`, tokens[actor]);
      expect(res.status).toBe(sees[actor] ? 200 : refusal(actor));
      if (sees[actor]) expect(res.body._id).toBe(imageId);
    });

    it(`list: ${sees[actor] ? 'in the gallery' : 'not in the gallery'}`, async () => {
      const res = await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=200', tokens[actor]);
      if (actor === 'noToken') return expect(res.status).toBe(401);
      expect(res.status).toBe(200);
      expect(res.body.images.some((image) => image._id === imageId)).toBe(sees[actor]);
    });

    it(`like: ${sees[actor] ? 'allowed' : 'refused, count unchanged'}`, async () => {
      const before = await likeCount(imageId);
      const res = await api.post<{ likes: number; liked: boolean }>(`/images/${imageId}/like`, { liked: true }, tokens[actor]);
      expect(res.status).toBe(sees[actor] ? 200 : refusal(actor));
      expect(await likeCount(imageId)).toBe(sees[actor] ? before + 1 : before);
      if (sees[actor]) expect(res.body).toMatchObject({ likes: before + 1, liked: true });
    });

    it(`tag: ${sees[actor] ? 'allowed' : 'refused, tags unchanged'}`, async () => {
      const tag = `matrix-${actor.toLowerCase()}`;
      const before = await tagsOf(imageId);
      const res = await api.post(`/images/${imageId}/addTag`, { tag }, tokens[actor]);
      expect(res.status).toBe(sees[actor] ? 200 : refusal(actor));
      const after = await tagsOf(imageId);
      if (sees[actor]) expect(after).toContain(tag);
      else expect(after).toEqual(before);
    });

    it(`delete: ${manages[actor] ? 'allowed' : 'refused, image still there'}`, async () => {
      // An allowed delete gets its own image, so the matrix's image stays for the other actors.
      const target = manages[actor] ? await uploadOne(ownerToken()) : imageId;
      const res = await api.post('/api/deleteImages', { imageIds: [target] }, tokens[actor]);
      expect(res.status).toBe(manages[actor] ? 200 : refusal(actor));
      expect(await exists(target)).toBe(!manages[actor]);
    });

    it(`share: ${manages[actor] ? 'allowed' : 'refused, no access record written'}`, async () => {
      const recipient = newPerson('recipient').email;
      const before = await accessRecords(tokens[actor]);
      const res = await api.post('/api/share-restricted', { imageIds: [imageId], emails: [recipient] }, tokens[actor]);
      expect(res.status).toBe(manages[actor] ? 200 : refusal(actor));
      const after = (await api.post<{ count: number }>('/api/shared-with-user', { userName: recipient }, tokens[actor] ?? ownerToken()));
      if (manages[actor]) {
        expect(after.body.count).toBe(1);
      } else {
        expect(await accessRecords(tokens[actor])).toEqual(before);
        // Neither the actor nor the owner has any record for the recipient.
        expect(after.status).toBe(404);
        expect((await api.post('/api/shared-with-user', { userName: recipient }, ownerToken())).status).toBe(404);
      }
    });
  });
});
