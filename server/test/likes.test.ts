import type { Image } from '@photo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { type Person, tagFixtures } from './support/tag-fixtures.js';
import { ManualClock, startTestServer, type TestServer } from './support/test-server.js';

interface LikeAnswer {
  likes: number;
  totalLikes: number;
  liked: boolean;
  userAccessData?: Image;
}

describe.each(testDatabases)('likes on %s', (database) => {
  let server: TestServer;
  // Moved on between marks, so 'most recent first' never rests on two requests in one millisecond.
  const clock = new ManualClock();
  let api: ApiClient;
  const fx = tagFixtures(() => server, () => api);
  let admin: Person;
  let alice: Person;
  let bob: Person;

  const like = (person: Person, id: string, liked: boolean) => api.post<LikeAnswer>(`/images/${id}/like`, { liked }, person.token);
  const status = (person: Person, id: string) => api.get<{ liked: boolean; likeCount: number }>(`/images/${id}/like-status`, person.token);

  beforeAll(async () => {
    server = await startTestServer(database, { clock });
    api = apiClient(server.url);
    admin = await fx.signUpConfirmed('admin');
    alice = await fx.signUpConfirmed('alice');
    bob = await fx.signUpConfirmed('bob');
  }, 60_000);
  afterAll(async () => server?.close());

  it('counts likes per person: the total, and each person\'s own state', async () => {
    const [a] = (await fx.images(alice, 1)) as [string];
    const first = await like(alice, a, true);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ likes: 1, totalLikes: 1, liked: true });
    // The record the shared view puts in place of its own.
    expect(first.body.userAccessData).toMatchObject({ _id: a, likes: 1, liked: true });
    // Setting, not toggling: liking again changes nothing.
    expect((await like(alice, a, true)).body).toMatchObject({ likes: 1, liked: true });
    expect((await like(admin, a, true)).body).toMatchObject({ likes: 2, totalLikes: 2, liked: true });
    expect((await status(alice, a)).body).toEqual({ liked: true, likeCount: 2 });
    expect((await like(alice, a, false)).body).toMatchObject({ likes: 1, liked: false, userAccessData: { likes: 1, liked: false } });
    expect((await like(alice, a, false)).body).toMatchObject({ likes: 1, liked: false });
    expect((await status(alice, a)).body).toEqual({ liked: false, likeCount: 1 });
    expect((await status(admin, a)).body).toEqual({ liked: true, likeCount: 1 });
    expect((await api.get<Image>(`/api/images/${a}`, admin.token)).body).toMatchObject({ likes: 1, liked: true });
    expect((await api.get<Image>(`/api/images/${a}`, alice.token)).body).toMatchObject({ likes: 1, liked: false });
  });

  it('answers a like with the record as it is after the like, though the image was read (and kept) just before', async () => {
    const [a] = (await fx.images(alice, 1)) as [string];
    for (let round = 0; round < 2; round += 1) {
      expect((await api.get<Image>(`/api/images/${a}`, alice.token)).body).toMatchObject({ likes: 0, liked: false });
      expect((await like(alice, a, true)).body.userAccessData).toMatchObject({ _id: a, likes: 1, liked: true });
      expect((await api.get<Image>(`/api/images/${a}`, alice.token)).body).toMatchObject({ likes: 1, liked: true });
      expect((await like(alice, a, false)).body.userAccessData).toMatchObject({ _id: a, likes: 0, liked: false });
    }
  });

  it('lists My Favorite Images: what this person liked, in gallery order (newest taken first)', async () => {
    const [a1, a2, a3] = (await fx.images(alice, 3)) as [string, string, string];
    const carol = await fx.signUpConfirmed('carol');
    await like(carol, a1, true); // not visible to Carol: refused, so not a favourite
    await fx.share(alice, [a1, a2, a3], carol);
    await like(carol, a2, true);
    clock.advance(1000);
    await like(carol, a1, true);
    await like(alice, a3, true);
    const res = await api.get<{ data: Image[] }>('/my-liked-images', carol.token);
    expect(res.status).toBe(200);
    // Issue 11: every list in gallery order, whatever the order of liking.
    const gallery = (await api.get<{ images: Image[] }>('/api/gridimages?page=1&limit=200', carol.token)).body.images.map((i) => i._id);
    expect(res.body.data.map((i) => i._id)).toEqual(gallery.filter((each) => each === a1 || each === a2));
    expect(res.body.data.every((i) => i.liked)).toBe(true);
    // A favourite that is deleted leaves the list (its likes go with it).
    await api.post('/api/deleteImages', { imageIds: [a1] }, alice.token);
    expect((await api.get<{ data: Image[] }>('/my-liked-images', carol.token)).body.data.map((i) => i._id)).toEqual([a2]);
  });

  it('answers 404 naming the id for an image the person cannot see, and changes nothing', async () => {
    const [a] = (await fx.images(alice, 1)) as [string];
    await like(alice, a, true);
    const refused = await like(bob, a, true);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ message: `Image ${a} was not found.` });
    expect((await like(bob, a, false)).status).toBe(404);
    expect((await status(bob, a)).status).toBe(404);
    expect((await like(bob, '999999', true)).status).toBe(404);
    expect((await status(alice, a)).body).toEqual({ liked: true, likeCount: 1 });
    expect((await api.get<{ data: Image[] }>('/my-liked-images', bob.token)).body.data).toEqual([]);
  });

  it('answers 401 without a token and 400 without the liked flag', async () => {
    const [a] = (await fx.images(alice, 1)) as [string];
    expect((await api.post(`/images/${a}/like`, { liked: true })).status).toBe(401);
    expect((await api.get(`/images/${a}/like-status`)).status).toBe(401);
    expect((await api.get('/my-liked-images')).status).toBe(401);
    expect((await api.post(`/images/${a}/like`, {}, alice.token)).status).toBe(400);
    expect((await api.post(`/images/${a}/like`, { liked: 'yes' }, alice.token)).status).toBe(400);
    expect((await status(alice, a)).body).toEqual({ liked: false, likeCount: 0 });
  });
});
