import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Image, TimelineMonth } from '@photo/contract';
import { signUpConfirmed, type SignedUpPerson } from './support/accounts.js';
import { testDatabases } from './support/databases.js';
import { apiClient, type ApiClient } from './support/http.js';
import { tinyPng, upload } from './support/images.js';
import { ManualClock, startTestServer, type TestServer } from './support/test-server.js';

interface GridPage {
  images: Image[];
  pagination: { currentPage: number; hasMore: boolean; totalImages: number };
}
interface Timeline {
  totalImages: number;
  months: TimelineMonth[];
}
interface MonthPage extends GridPage {
  month: string;
  count: number;
  offset: number;
  galleryPage: number;
}

/** A small JPEG whose EXIF says when it was taken (and at which offset), as a camera writes it. */
async function photoTaken(seed: number, dateTimeOriginal: string, offset?: string): Promise<Buffer> {
  return sharp({ create: { width: 16, height: 12, channels: 3, background: { r: seed % 256, g: (seed * 7) % 256, b: 90 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Canon', Model: 'Canon EOS 70D' }, IFD2: { DateTimeOriginal: dateTimeOriginal, ...(offset ? { OffsetTimeOriginal: offset } : {}) } })
    .toBuffer();
}

/**
 * Issue 11: every list newest *taken* first (date taken at its offset, else the file's date, else
 * the upload), the month buckets of what each person may see, a month's pages, and previous/next
 * across month boundaries — on both databases.
 */
describe.each(testDatabases)('timeline on %s', (database) => {
  let server: TestServer;
  let api: ApiClient;
  const clock = new ManualClock();
  /** The month and day of the upload of the undated photo (it sorts by its upload). */
  let uploadMonth = '';
  let uploadDay = 0;
  let admin: SignedUpPerson;
  let alice: SignedUpPerson;
  let bob: SignedUpPerson;
  /** Alice's photos by name. */
  const id = {} as Record<'tokyo' | 'london' | 'newYear' | 'burst1' | 'burst2' | 'noDate' | 'scan', string>;

  async function uploadOne(token: string, name: string, source: Buffer): Promise<string> {
    const res = await upload(server.url, token, [{ source, name }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [result] = res.body.results ?? [];
    expect(result?.status, JSON.stringify(result)).toBe('kept');
    return result?.imageId ?? '';
  }

  const timeline = (token: string) => api.get<Timeline>('/api/timeline', token);
  const monthPage = (token: string, month: string, query = '') => api.get<MonthPage>(`/api/timeline/${month}${query}`, token);
  const galleryIds = async (token: string) =>
    (await api.get<GridPage>('/api/gridimages?page=1&limit=200', token)).body.images.map((image) => image._id);

  beforeAll(async () => {
    server = await startTestServer(database, { clock });
    api = apiClient(server.url);
    admin = await signUpConfirmed(server, api, { prefix: 'admin' });
    alice = await signUpConfirmed(server, api, { prefix: 'alice' });
    bob = await signUpConfirmed(server, api, { prefix: 'bob' });
    // Uploaded one by one in an order unrelated to when they were taken: an old scan goes last.
    id.tokyo = await uploadOne(alice.token, 'tokyo.jpg', await photoTaken(1, '2015:03:14 10:00:00', '+09:00')); // 01:00Z
    id.london = await uploadOne(alice.token, 'london.jpg', await photoTaken(2, '2015:03:14 02:00:00')); // no offset: 02:00Z
    id.newYear = await uploadOne(alice.token, 'new-year.jpg', await photoTaken(3, '2020:12:31 23:30:00', '-05:00')); // 2021-01-01T04:30Z
    id.burst1 = await uploadOne(alice.token, 'burst-1.jpg', await photoTaken(4, '2015:03:20 08:00:00'));
    id.burst2 = await uploadOne(alice.token, 'burst-2.jpg', await photoTaken(5, '2015:03:20 08:00:00'));
    id.noDate = await uploadOne(alice.token, 'screenshot.png', await tinyPng(6));
    id.scan = await uploadOne(alice.token, 'old-scan.jpg', await photoTaken(7, '2012:07:01 12:00:00'));
    await uploadOne(bob.token, 'bobs.jpg', await photoTaken(8, '2018:05:05 05:05:05'));
    const undated = await api.get<Image>(`/api/images/${id.noDate}`, alice.token);
    uploadMonth = undated.body.sortedAt.slice(0, 7);
    uploadDay = Number(undated.body.sortedAt.slice(8, 10));
    const share = await api.post('/api/share-restricted', { imageIds: [id.tokyo, id.scan, id.newYear], emails: [bob.email] }, alice.token);
    expect(share.status, JSON.stringify(share.body)).toBe(200);
  }, 90_000);
  afterAll(async () => server?.close());

  // The gallery order of Alice's photos: the undated one at its upload (2026), then by instant taken.
  const aliceOrder = () => [id.noDate, id.newYear, ...[id.burst1, id.burst2].sort((a, b) => Number(b) - Number(a)), id.london, id.tokyo, id.scan];

  it('orders every list newest taken first: offsets count, the undated sort by upload, ties by id', async () => {
    expect(await galleryIds(alice.token)).toEqual(aliceOrder());
    const images = (await api.get<GridPage>('/api/gridimages?page=1&limit=50', alice.token)).body.images;
    const byId = new Map(images.map((image) => [image._id, image]));
    expect(byId.get(id.tokyo)).toMatchObject({ takenAt: '2015-03-14T10:00:00', sortedAt: '2015-03-14T01:00:00.000Z', dateSource: 'taken' });
    expect(byId.get(id.london)).toMatchObject({ sortedAt: '2015-03-14T02:00:00.000Z', dateSource: 'taken' });
    expect(byId.get(id.newYear)).toMatchObject({ sortedAt: '2021-01-01T04:30:00.000Z' });
    const undated = byId.get(id.noDate);
    expect(undated).toMatchObject({ takenAt: null, dateSource: 'upload' });
    expect(undated?.sortedAt).toBe(new Date(undated?.createdAt ?? '').toISOString());
    // The other lists follow the same order: library, profile uploads, search.
    const library = await api.get<GridPage>('/library?page=1&limit=50', alice.token);
    expect(library.body.images.map((image) => image._id)).toEqual(aliceOrder());
    const search = await api.get<{ images: Image[] }>('/search?query=jpg', alice.token);
    expect(search.body.images.map((image) => image._id)).toEqual(aliceOrder().filter((each) => each !== id.noDate));
    const profile = await api.get<{ images?: Image[]; uploadedImages?: Image[] }>('/api/profile', alice.token);
    const uploads = (profile.body.images ?? profile.body.uploadedImages ?? []).map((image) => image._id);
    if (uploads.length > 0) expect(uploads).toEqual(aliceOrder());
    // A recipient's shared folder too.
    const shared = await api.get<{ images: Image[] }>('/shared-images', bob.token);
    expect(shared.body.images.map((image) => image._id)).toEqual([id.newYear, id.tokyo, id.scan]);
  });

  it('likes and in-photo lists are in gallery order, not in the order of liking', async () => {
    for (const each of [id.scan, id.tokyo, id.newYear]) {
      expect((await api.post(`/images/${each}/like`, { liked: true }, alice.token)).status).toBe(200);
    }
    const liked = await api.get<{ data: Image[] }>('/my-liked-images', alice.token);
    expect(liked.body.data.map((image) => image._id)).toEqual([id.newYear, id.tokyo, id.scan]);
  });

  it('counts each month and day of what each person may see: owner, restricted recipient, admin', async () => {
    const mine = (await timeline(alice.token)).body;
    expect(mine.totalImages).toBe(7);
    expect(mine.months).toEqual([
      { month: uploadMonth, count: 1, offset: 0, days: [[uploadDay, 1]] },
      { month: '2021-01', count: 1, offset: 1, days: [[1, 1]] },
      { month: '2015-03', count: 4, offset: 2, days: [[20, 2], [14, 2]] },
      { month: '2012-07', count: 1, offset: 6, days: [[1, 1]] },
    ]);
    // Bob: his own photo plus the three Alice shared with him.
    expect((await timeline(bob.token)).body).toEqual({
      totalImages: 4,
      months: [
        { month: '2021-01', count: 1, offset: 0, days: [[1, 1]] },
        { month: '2018-05', count: 1, offset: 1, days: [[5, 1]] },
        { month: '2015-03', count: 1, offset: 2, days: [[14, 1]] },
        { month: '2012-07', count: 1, offset: 3, days: [[1, 1]] },
      ],
    });
    const everything = (await timeline(admin.token)).body;
    expect(everything.totalImages).toBe(8);
    expect(everything.months.map((month) => [month.month, month.count])).toEqual([
      [uploadMonth, 1], ['2021-01', 1], ['2018-05', 1], ['2015-03', 4], ['2012-07', 1],
    ]);
    // Each month's offset is where its first photo sits in the gallery.
    const gallery = await galleryIds(admin.token);
    for (const month of everything.months) {
      const first = (await monthPage(admin.token, month.month, '?limit=1')).body.images[0];
      expect(gallery[month.offset]).toBe(first?._id);
    }
    expect((await timeline('')).status).toBe(401);
  });

  it('serves the pages of one month, and where the month sits in the gallery', async () => {
    const first = await monthPage(alice.token, '2015-03', '?page=1&limit=3');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ month: '2015-03', count: 4, offset: 2, galleryPage: 1 });
    expect(first.body.pagination).toEqual({ currentPage: 1, hasMore: true, totalImages: 4 });
    const second = await monthPage(alice.token, '2015-03', '?page=2&limit=3');
    expect([...first.body.images, ...second.body.images].map((image) => image._id)).toEqual(aliceOrder().slice(2, 6));
    expect(second.body.pagination.hasMore).toBe(false);
    // The gallery page (of the same size) holding the month's first photo.
    const holding = await monthPage(alice.token, '2015-03', '?limit=2');
    expect(holding.body.galleryPage).toBe(2);
    const galleryPage = await api.get<GridPage>('/api/gridimages?page=2&limit=2', alice.token);
    expect(galleryPage.body.images[0]?._id).toBe(holding.body.images[0]?._id);
    // A month without photos is empty, at its place; a month not written YYYY-MM is a 400.
    expect((await monthPage(alice.token, '2019-06')).body).toMatchObject({ count: 0, offset: 2, images: [] });
    expect((await monthPage(alice.token, '2015-13')).status).toBe(400);
    expect((await monthPage(alice.token, 'march')).status).toBe(400);
    // Bob sees only what was shared with him in that month.
    expect((await monthPage(bob.token, '2015-03')).body.images.map((image) => image._id)).toEqual([id.tokyo]);
  });

  it('steps previous/next in the same order, across month boundaries, wrapping at the ends', async () => {
    const order = aliceOrder();
    for (const [index, each] of order.entries()) {
      const res = await api.get<{ previous: string | null; next: string | null }>(`/api/images/${each}/neighbours`, alice.token);
      expect(res.body).toEqual({
        previous: order[(index - 1 + order.length) % order.length],
        next: order[(index + 1) % order.length],
      });
    }
  });

  it('puts a newly uploaded old photo in its year, also in a gallery read before', async () => {
    expect((await timeline(alice.token)).body.totalImages).toBe(7);
    clock.advance(60_000);
    const older = await uploadOne(alice.token, 'older-scan.jpg', await photoTaken(9, '2013:08:08 08:08:08'));
    const ids = await galleryIds(alice.token);
    expect(ids.indexOf(older)).toBe(ids.indexOf(id.scan) - 1);
    const months = (await timeline(alice.token)).body.months.map((month) => month.month);
    expect(months).toEqual([uploadMonth, '2021-01', '2015-03', '2013-08', '2012-07']);
  });

  it('catches cached lists up with trashing and restoring (no fresh read): photos leave and come back at their places', async () => {
    const before = await galleryIds(alice.token);
    const state = async () => (await server.rows<{ reset_version: number }>('select reset_version from library_state where id = 1'))[0]?.reset_version;
    const resetBefore = await state();
    expect((await api.post('/api/deleteImages', { imageIds: [id.london] }, alice.token)).status).toBe(200);
    expect(await galleryIds(alice.token)).toEqual(before.filter((each) => each !== id.london));
    expect((await timeline(alice.token)).body.months.find((month) => month.month === '2015-03')?.count).toBe(3);
    expect((await api.post('/api/trash/restore', { imageIds: [id.london] }, alice.token)).status).toBe(200);
    expect(await galleryIds(alice.token)).toEqual(before);
    expect((await timeline(bob.token)).body.totalImages).toBe(4);
    // Neither was a reset: readers dropped and merged just those.
    expect(await state()).toBe(resetBefore);
  });
});
