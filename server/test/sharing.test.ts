import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Image } from '@photo/contract';
import { signUpConfirmed } from './support/accounts.js';
import { testDatabases } from './support/databases.js';
import { apiClient, newPerson, type ApiClient } from './support/http.js';
import { tinyPng, upload } from './support/images.js';
import { startTestServer, type TestServer } from './support/test-server.js';

interface Person {
  token: string;
  email: string;
  username: string;
}
interface GridPage {
  images: Image[];
  pagination: { totalImages: number };
}
interface AccessData {
  allAccessUserData: { _id: string; accessTo: string; status: boolean }[];
  restrictedAccessUserData: { _id: string; accessTo: string; status: boolean }[];
}

describe.each(testDatabases)('sharing on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  let admin: Person;
  let bob: Person;
  let carol: Person;
  let bobIds: string[];
  let adminIds: string[];
  let seed = 0;

  /** A person who opened the link mailed to their address, so what is shared with it reaches them. */
  async function signUp(prefix = 'user', email?: string): Promise<Person> {
    return signUpConfirmed(server, api, { prefix, ...(email ? { email } : {}) });
  }
  async function uploadTiny(token: string, count: number): Promise<string[]> {
    const files = await Promise.all(Array.from({ length: count }, async () => ({ source: await tinyPng(5000 + seed++), name: `s-${seed}.png` })));
    const res = await upload(server.url, token, files);
    expect(res.status).toBe(200);
    const ids = (res.body.results ?? []).map((r) => r.imageId ?? '');
    // In the uploader's gallery order (newest first; files of one upload get their times in parallel).
    const order = await galleryIds(token);
    return ids.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  }
  const galleryIds = async (token: string) => (await api.get<GridPage>('/api/gridimages?page=1&limit=200', token)).body.images.map((i) => i._id);
  const total = async (token: string) => (await api.get<GridPage>('/api/gridimages?page=1&limit=1', token)).body.pagination.totalImages;
  const accessData = async (token: string) => (await api.get<AccessData>('/getUserAccessData', token)).body;
  const shareRestricted = (token: string, imageIds: string[], emails: string[], path = '/api/share-restricted') =>
    api.post<{ message: string }>(path, { imageIds, emails }, token);

  beforeAll(async () => {
    server = await startTestServer(database);
    api = apiClient(server.url);
    admin = await signUp('admin');
    bob = await signUp('bob');
    carol = await signUp('carol');
    adminIds = await uploadTiny(admin.token, 2);
    bobIds = await uploadTiny(bob.token, 4);
  }, 60_000);
  afterAll(async () => server?.close());

  it('shares selected images: recipients see them at once in the gallery and the detail, nothing else', async () => {
    const dave = newPerson('dave').email;
    expect(await galleryIds(carol.token)).toEqual([]);
    const res = await shareRestricted(bob.token, [bobIds[0]!, bobIds[1]!], [`  ${carol.email.toUpperCase()} `, dave]);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Shared 2 images with 2 people.');
    expect(await galleryIds(carol.token)).toEqual([bobIds[0], bobIds[1]]);
    expect((await api.get<Image>(`/api/images/${bobIds[1]}`, carol.token)).status).toBe(200);
    expect((await api.get(`/api/images/${bobIds[2]}`, carol.token)).status).toBe(404);
    // Someone who signs up later with a shared-to address sees the share once the address is proven.
    const daveAccount = await signUp('dave', dave);
    expect(await galleryIds(daveAccount.token)).toEqual([bobIds[0], bobIds[1]]);
    const access = await accessData(bob.token);
    expect(access.allAccessUserData).toEqual([]);
    expect(access.restrictedAccessUserData.map((r) => [r.accessTo, r.status])).toEqual([[carol.email, true], [dave, true]]);
  });

  it('adds nothing when the same image is shared with the same person again; the older path behaves the same', async () => {
    const erin = await signUp('erin');
    expect((await shareRestricted(bob.token, [bobIds[2]!], [erin.email], '/share-img')).status).toBe(200);
    expect((await shareRestricted(bob.token, [bobIds[2]!, bobIds[2]!], [erin.email, erin.email])).status).toBe(200);
    expect((await shareRestricted(bob.token, [bobIds[2]!, bobIds[3]!], [erin.email], '/share-img')).status).toBe(200);
    expect(await galleryIds(erin.token)).toEqual([bobIds[2], bobIds[3]]);
    const records = (await accessData(bob.token)).restrictedAccessUserData.filter((r) => r.accessTo === erin.email);
    expect(records).toHaveLength(1);
    const withErin = await api.post<{ count: number }>('/api/shared-with-user', { userName: erin.email }, bob.token);
    expect(withErin.body.count).toBe(2);
  });

  it('refuses, naming the id and writing nothing, images the sharer may not share or cannot see', async () => {
    const frank = await signUp('frank');
    const before = await accessData(carol.token);
    // Carol sees bobIds[0] (shared with her) but did not upload it; adminIds[0] she cannot see at all.
    const notHers = await shareRestricted(carol.token, [bobIds[0]!], [frank.email]);
    expect(notHers.status).toBe(404);
    expect(notHers.body.message).toBe(`Image ${bobIds[0]} can only be shared by the person who uploaded it, so nothing was shared.`);
    const unseen = await shareRestricted(bob.token, [bobIds[3]!, adminIds[0]!], [frank.email]);
    expect(unseen.status).toBe(404);
    expect(unseen.body.message).toBe(`Image ${adminIds[0]} was not found, so nothing was shared.`);
    expect((await shareRestricted(bob.token, ['999999'], [frank.email])).status).toBe(404);
    expect(await accessData(carol.token)).toEqual(before);
    expect((await accessData(bob.token)).restrictedAccessUserData.map((r) => r.accessTo)).not.toContain(frank.email);
    expect(await galleryIds(frank.token)).toEqual([]);
    // An admin may share anyone's image.
    expect((await shareRestricted(admin.token, [bobIds[3]!], [frank.email])).status).toBe(200);
    expect(await galleryIds(frank.token)).toEqual([bobIds[3]]);
  });

  it('validates the addresses and the selection', async () => {
    expect((await shareRestricted(bob.token, [bobIds[0]!], ['not-an-address'])).status).toBe(400);
    expect((await shareRestricted(bob.token, [bobIds[0]!], [])).status).toBe(400);
    expect((await shareRestricted(bob.token, [], [carol.email])).status).toBe(400);
    const self = await shareRestricted(bob.token, [bobIds[0]!], [bob.email]);
    expect(self.status).toBe(400);
    expect(self.body.message).toBe('You already see your own images; share them with someone else.');
    expect((await api.post('/api/share-restricted', { imageIds: [bobIds[0]], emails: [carol.email] })).status).toBe(401);
  });

  it('limits share mail per sharer (300 recipients an hour), refusing the share that goes over before writing it', async () => {
    const ivan = await signUp('ivan');
    const [id] = await uploadTiny(ivan.token, 1);
    for (let call = 0; call < 6; call += 1) {
      const fifty = Array.from({ length: 50 }, () => newPerson('bulk').email);
      expect((await shareRestricted(ivan.token, [id!], fifty)).status).toBe(200);
    }
    const over = newPerson('over').email;
    const refused = await shareRestricted(ivan.token, [id!], [over]);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many share e-mails from your account in the last hour. Please try again later.');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await accessData(ivan.token)).restrictedAccessUserData.map((r) => r.accessTo)).not.toContain(over);
    expect((await accessData(ivan.token)).restrictedAccessUserData).toHaveLength(300);
  });

  it('lists who shared what with me, grouped by sharer, with thumbnails', async () => {
    const res = await api.get<{
      hasAccess: boolean;
      data: { sharedBy: { sharedByUserName: string; totalImagesShared: number; images: { imageId: string; imageName: string; imageThumbnail: string | null; tags: string[] }[] }[] };
      userAccessData: Image[];
    }>('/sharedWithMe', carol.token);
    expect(res.status).toBe(200);
    expect(res.body.hasAccess).toBe(true);
    expect(res.body.data.sharedBy).toHaveLength(1);
    const [byBob] = res.body.data.sharedBy;
    expect(byBob).toMatchObject({ sharedByUserName: bob.username, totalImagesShared: 2 });
    expect(byBob!.images.map((i) => i.imageId)).toEqual([bobIds[0], bobIds[1]]);
    expect(byBob!.images[0]!.imageThumbnail).toMatch(/^\/media\//);
    expect(res.body.userAccessData.map((i) => i._id)).toEqual([bobIds[0], bobIds[1]]);

    const nobody = await signUp('nobody');
    expect((await api.get('/sharedWithMe', nobody.token)).body).toEqual({ hasAccess: false, data: { sharedBy: [] }, userAccessData: [] });
    const shared = await api.get<{ images: Image[]; message: string }>('/shared-images', carol.token);
    expect(shared.body.images.map((i) => i._id)).toEqual([bobIds[0], bobIds[1]]);
    expect((await api.get('/shared-images', nobody.token)).body).toEqual({ images: [], message: 'No images have been shared with you yet.' });
  });

  it('lists the people I shared with, with counts, and what one of them gets', async () => {
    const mine = await api.get<{ sharedUsers: { sharedWith: string; countImages: number }[]; count: number }>('/api/users-i-shared-with', bob.token);
    expect(mine.body.sharedUsers).toContainEqual({ sharedWith: carol.email, countImages: 2 });
    expect(mine.body.count).toBe(mine.body.sharedUsers.length);
    const withCarol = await api.post<{ images: Image[]; count: number; accessType: string; userEmail: string; sharedByName: string }>(
      '/api/shared-with-user', { userName: carol.email.toUpperCase() }, bob.token);
    expect(withCarol.status).toBe(200);
    expect(withCarol.body).toMatchObject({ count: 2, accessType: 'restrictedAccess', userEmail: carol.email, sharedByName: bob.username });
    expect(withCarol.body.images.map((i) => i._id)).toEqual([bobIds[0], bobIds[1]]);
    const stranger = await api.post<{ message: string }>('/api/shared-with-user', { userName: 'nobody@example.com' }, bob.token);
    expect(stranger.status).toBe(404);
    expect((await api.get('/api/users-i-shared-with', carol.token)).body).toEqual({ sharedUsers: [], count: 0 });
  });

  it('switching a recipient off hides the images from them at once; only the owner may switch it', async () => {
    const gina = await signUp('gina');
    await shareRestricted(bob.token, [bobIds[0]!], [gina.email]);
    expect(await galleryIds(gina.token)).toEqual([bobIds[0]]);
    const record = (await accessData(bob.token)).restrictedAccessUserData.find((r) => r.accessTo === gina.email)!;

    const byOther = await api.put(`/updateUserStatus/${record._id}`, { status: false, type: 'restrictedAccess' }, carol.token);
    expect(byOther.status).toBe(404);
    const wrongKind = await api.put(`/updateUserStatus/${record._id}`, { status: false, type: 'allAccess' }, bob.token);
    expect(wrongKind.status).toBe(404);
    expect(await galleryIds(gina.token)).toEqual([bobIds[0]]);

    const off = await api.put(`/updateUserStatus/${record._id}`, { status: false, type: 'restrictedAccess' }, bob.token);
    expect(off.status).toBe(200);
    expect(await galleryIds(gina.token)).toEqual([]);
    expect((await api.get(`/api/images/${bobIds[0]}`, gina.token)).status).toBe(404);
    expect((await api.get<{ hasAccess: boolean }>('/sharedWithMe', gina.token)).body.hasAccess).toBe(false);
    expect((await accessData(bob.token)).restrictedAccessUserData.find((r) => r.accessTo === gina.email)?.status).toBe(false);

    expect((await api.put(`/updateUserStatus/${record._id}`, { status: true, type: 'restrictedAccess' }, bob.token)).status).toBe(200);
    expect(await galleryIds(gina.token)).toEqual([bobIds[0]]);
    expect((await api.put('/updateUserStatus/abc', { status: true, type: 'restrictedAccess' }, bob.token)).status).toBe(404);
    expect((await api.put(`/updateUserStatus/${record._id}`, { status: 'yes', type: 'restrictedAccess' }, bob.token)).status).toBe(400);
  });

  it('steps previous/next over own uploads and shared images together, wrapping, skipping what is not shared', async () => {
    const jo = await signUp('jo');
    const [own] = await uploadTiny(jo.token, 1);
    const [sharedOld, , sharedNew] = await uploadTiny(bob.token, 3).then((ids) => [...ids].reverse());
    expect((await shareRestricted(bob.token, [sharedOld!, sharedNew!], [jo.email])).status).toBe(200);
    // Gallery order (decision 0009: by upload time here, ties by id); previous/next follow it.
    const order = await galleryIds(jo.token);
    expect([...order].sort()).toEqual([own!, sharedOld!, sharedNew!].sort());
    const at = async (id: string) => (await api.get<{ previous: string | null; next: string | null }>(`/api/images/${id}/neighbours`, jo.token)).body;
    expect(await at(order[0]!)).toEqual({ previous: order[2], next: order[1] });
    expect(await at(order[1]!)).toEqual({ previous: order[0], next: order[2] });
    expect(await at(order[2]!)).toEqual({ previous: order[1], next: order[0] });
  });

  it('deleting a shared image takes it out of every share it was in', async () => {
    const hank = await signUp('hank');
    const [keep, gone] = await uploadTiny(bob.token, 2);
    expect((await shareRestricted(bob.token, [keep!, gone!], [hank.email])).status).toBe(200);
    expect(await galleryIds(hank.token)).toEqual([keep, gone]);
    expect((await api.post('/api/deleteImages', { imageIds: [gone] }, bob.token)).status).toBe(200);
    expect(await galleryIds(hank.token)).toEqual([keep]);
    const withHank = await api.post<{ count: number; images: Image[] }>('/api/shared-with-user', { userName: hank.email }, bob.token);
    expect(withHank.body.count).toBe(1);
    expect(withHank.body.images.map((i) => i._id)).toEqual([keep]);
  });

  it('share-all: admins only; the public link shows every image while active, a clear 404 once switched off', async () => {
    const grandma = newPerson('grandma').email;
    const refused = await api.post('/api/share-all', { accessTo: [grandma] }, bob.token);
    expect(refused.status).toBe(404);
    expect((await accessData(bob.token)).allAccessUserData).toEqual([]);

    const res = await api.post<{ link: string }>('/api/share-all', { accessTo: [grandma] }, admin.token);
    expect(res.status).toBe(200);
    const match = /^http:\/\/photos\.test\/share-all\/([A-Za-z0-9_-]{43})$/.exec(res.body.link);
    expect(match).not.toBeNull();
    const token = match![1]!;
    const libraryIds = await galleryIds(admin.token);

    const page = await api.get<{ success: boolean; images: Image[] }>(`/shared-images/${token}`);
    expect(page.status).toBe(200);
    expect(page.body.success).toBe(true);
    expect(page.body.images.map((i) => i._id)).toEqual(libraryIds);
    expect(page.body.images.every((i) => i.liked === false)).toBe(true);

    // She signs up later and her gallery is the whole library.
    const her = await signUp('grandma', grandma);
    expect(await total(her.token)).toBe(libraryIds.length);
    const sharedWithHer = await api.get<{ data: { sharedBy: { sharedByUserName: string; totalImagesShared: number }[] } }>('/sharedWithMe', her.token);
    expect(sharedWithHer.body.data.sharedBy).toEqual([expect.objectContaining({ sharedByUserName: admin.username, totalImagesShared: libraryIds.length })]);
    const adminShares = await api.get<{ sharedUsers: { sharedWith: string; countImages: number }[] }>('/api/users-i-shared-with', admin.token);
    expect(adminShares.body.sharedUsers).toContainEqual({ sharedWith: grandma, countImages: libraryIds.length });

    // Sharing again gives a new link, and the old one dies (decision 0006: nothing switched off returns).
    const again = (await api.post<{ link: string }>('/api/share-all', { accessTo: [grandma] }, admin.token)).body.link;
    expect(again).not.toBe(res.body.link);
    expect((await api.get(`/shared-images/${token}`)).status).toBe(404);
    const newToken = again.split('/').pop()!;
    expect((await api.get(`/shared-images/${newToken}`)).status).toBe(200);
    const [record] = (await accessData(admin.token)).allAccessUserData;
    expect(record).toMatchObject({ accessTo: grandma, status: true });

    expect((await api.put(`/updateUserStatus/${record!._id}`, { status: false, type: 'allAccess' }, admin.token)).status).toBe(200);
    const closed = await api.get<{ message: string }>(`/shared-images/${newToken}`);
    expect(closed.status).toBe(404);
    expect(closed.body.message).toBe('This link is no longer active.');
    expect(await total(her.token)).toBe(0);

    const unknown = await api.get<{ message: string }>(`/shared-images/${'x'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/does not exist/);
  });

  it('share-all validates its addresses and gives everyone their own link', async () => {
    expect((await api.post('/api/share-all', { accessTo: [] }, admin.token)).status).toBe(400);
    expect((await api.post('/api/share-all', { accessTo: ['nope'] }, admin.token)).status).toBe(400);
    expect((await api.post('/api/share-all', { accessTo: [newPerson().email] })).status).toBe(401);
    const [a, b] = [newPerson().email, newPerson().email];
    const first = (await api.post<{ link: string }>('/api/share-all', { accessTo: [a, b] }, admin.token)).body.link;
    const second = (await api.post<{ link: string }>('/api/share-all', { accessTo: [b] }, admin.token)).body.link;
    expect(first).not.toBe(second);
    expect((await api.get(`/shared-images/${first.split('/').pop()}`)).status).toBe(200);
    expect((await api.get(`/shared-images/${second.split('/').pop()}`)).status).toBe(200);
  });
});
