import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { type Person, tagFixtures } from './support/tag-fixtures.js';
import { ManualClock, startTestServer, type TestServer } from './support/test-server.js';

interface PhotoIn {
  id: string;
  imageUrl: string | null;
  imageName: string;
  tags: string[];
}

describe.each(testDatabases)("I'm in this photo on %s", (database) => {
  let server: TestServer;
  // Moved on between marks, so 'most recent first' never rests on two requests in one millisecond.
  const clock = new ManualClock();
  let api: ApiClient;
  const fx = tagFixtures(() => server, () => api);
  let alice: Person;
  let bob: Person;

  const isIn = (person: Person, id: string) => api.get<{ isUserInPhoto: boolean }>(`/isUserInPhoto/${id}`, person.token);
  const names = (person: Person, id: string) => api.get<string[]>(`/getTaggedUser/${id}`, person.token);

  beforeAll(async () => {
    server = await startTestServer(database, { clock });
    api = apiClient(server.url);
    await fx.signUpConfirmed('admin');
    alice = await fx.signUpConfirmed('alice');
    bob = await fx.signUpConfirmed('bob');
  }, 60_000);
  afterAll(async () => server?.close());

  it('marks a person once, says so, and names everyone marked', async () => {
    const [a] = (await fx.images(alice, 1)) as [string];
    expect((await isIn(alice, a)).body).toEqual({ isUserInPhoto: false });
    expect((await names(alice, a)).body).toEqual([]);
    const res = await api.post('/inPhoto', { imageId: a }, alice.token);
    expect(res.status).toBe(200);
    expect((await api.post('/inPhoto', { imageId: a }, alice.token)).status).toBe(200);
    expect((await isIn(alice, a)).body).toEqual({ isUserInPhoto: true });
    await fx.share(alice, [a], bob);
    expect((await isIn(bob, a)).body).toEqual({ isUserInPhoto: false });
    await api.post('/inPhoto', { imageId: a }, bob.token);
    expect((await names(bob, a)).body).toEqual([alice.username, bob.username]);
  });

  it("lists Photos I'm in with a thumbnail URL, name and tags, in gallery order", async () => {
    const carol = await fx.signUpConfirmed('carol');
    const [c1, c2, c3] = (await fx.images(carol, 3)) as [string, string, string];
    await api.post('/add-tags', { tags: ['Party', 'friends'], imageIds: [c2] }, carol.token);
    await api.post('/inPhoto', { imageId: c2 }, carol.token);
    clock.advance(1000);
    await api.post('/inPhoto', { imageId: c1 }, carol.token);
    const res = await api.get<{ data: PhotoIn[] }>('/photosUserTaggedIn', carol.token);
    expect(res.status).toBe(200);
    // Issue 11: every list in gallery order (newest taken first), whatever the order of marking.
    const gallery = (await api.get<{ images: { _id: string }[] }>('/api/gridimages?page=1&limit=200', carol.token)).body.images.map((i) => i._id);
    expect(res.body.data.map((p) => p.id)).toEqual(gallery.filter((each) => each === c1 || each === c2));
    const marked = res.body.data.find((p) => p.id === c2);
    expect(marked).toMatchObject({ tags: ['friends', 'party'], imageName: expect.stringMatching(/^pic-\d+$/) });
    const thumb = await fetch(new URL(marked?.imageUrl ?? '', server.url));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toContain('image/');
    expect(res.body.data.map((p) => p.id)).not.toContain(c3);
    // A deleted photo leaves the list with its marks.
    await api.post('/api/deleteImages', { imageIds: [c1] }, carol.token);
    expect((await api.get<{ data: PhotoIn[] }>('/photosUserTaggedIn', carol.token)).body.data.map((p) => p.id)).toEqual([c2]);
  });

  it('answers 404 naming the id for an image the person cannot see, and marks nothing', async () => {
    const [a] = (await fx.images(alice, 1)) as [string];
    const dave = await fx.signUpConfirmed('dave');
    const refused = await api.post('/inPhoto', { imageId: a }, dave.token);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ message: `Image ${a} was not found.` });
    expect((await isIn(dave, a)).status).toBe(404);
    expect((await names(dave, a)).status).toBe(404);
    expect((await api.post('/inPhoto', { imageId: 'nope' }, dave.token)).status).toBe(404);
    expect((await names(alice, a)).body).toEqual([]);
    expect((await api.get<{ data: PhotoIn[] }>('/photosUserTaggedIn', dave.token)).body.data).toEqual([]);
  });

  it('answers 401 without a token', async () => {
    const [a] = (await fx.images(alice, 1)) as [string];
    expect((await api.post('/inPhoto', { imageId: a })).status).toBe(401);
    expect((await api.get(`/isUserInPhoto/${a}`)).status).toBe(401);
    expect((await api.get(`/getTaggedUser/${a}`)).status).toBe(401);
    expect((await api.get('/photosUserTaggedIn')).status).toBe(401);
    expect((await names(alice, a)).body).toEqual([]);
  });
});
