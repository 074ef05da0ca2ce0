import { rgbaToThumbHash } from 'thumbhash';
import type { Image, TimelineMonth } from '@photo/contract';
import type { StubResponse } from './fetch-stub';

/** An image record as the server sends it; override what a test is about. */
export function makeImage(id: string, overrides: Partial<Image> = {}): Image {
  return {
    _id: id,
    imageName: `photo-${id}.jpg`,
    FileName: `photo-${id}.jpg`,
    trimmedURL: `/media/derived/${id}.webp?exp=1&sig=s`,
    thumbnailURL: `/media/derived/${id}-thumb.webp?exp=1&sig=s`,
    placeholder: null,
    width: 400,
    height: 300,
    takenAt: null,
    sortedAt: '2024-01-01T00:00:00.000Z',
    dateSource: 'upload',
    camera: null,
    gps: null,
    tags: [],
    allTags: [],
    customTags: [],
    likes: 0,
    liked: false,
    uploadedBy: 'u1',
    createdAt: '2024-01-01T00:00:00Z',
    ...overrides,
  };
}

/** Pages the way GET /api/gridimages?page&limit answers: `total` images, newest first. */
export function pagedAnswer(images: Image[], url: string) {
  const params = new URL(url, 'http://localhost').searchParams;
  const page = Number(params.get('page') ?? 1);
  const limit = Number(params.get('limit') ?? 50);
  const slice = images.slice((page - 1) * limit, page * limit);
  return {
    body: { images: slice, pagination: { currentPage: page, hasMore: page * limit < images.length, totalImages: images.length } },
  };
}

/** Sets the window's scroll position (jsdom does not scroll) and tells the listeners. */
export function scrollWindowTo(y: number): void {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  window.dispatchEvent(new Event('scroll'));
}

/** A real ThumbHash (a 4×3 orange picture), base64 as the server sends it. */
export function samplePlaceholder(): string {
  const rgba = new Uint8Array(4 * 3 * 4).map((_, index) => [255, 140, 0, 255][index % 4]!);
  return btoa(String.fromCharCode(...rgbaToThumbHash(4, 3, rgba)));
}

/** The month ('YYYY-MM') of an image's place in the timeline (UTC, like the server). */
export const monthOf = (image: Image) => image.sortedAt.slice(0, 7);

/** GET /api/timeline as the server answers it for `images` (given newest first). */
export function timelineOf(images: readonly Image[]): { totalImages: number; months: TimelineMonth[] } {
  const months: TimelineMonth[] = [];
  images.forEach((image, index) => {
    const day = new Date(image.sortedAt).getUTCDate();
    let month = months.at(-1);
    if (month?.month !== monthOf(image)) months.push((month = { month: monthOf(image), count: 0, offset: index, days: [] }));
    month.count += 1;
    const last = month.days.at(-1);
    if (last && last[0] === day) last[1] += 1;
    else month.days.push([day, 1]);
  });
  return { totalImages: images.length, months };
}

/** One page of GET /api/timeline/:month?page&limit for `images` (given newest first). */
export function timelineMonthAnswer(images: readonly Image[], month: string, url: string): StubResponse {
  const params = new URL(url, 'http://localhost').searchParams;
  const page = Number(params.get('page') ?? 1);
  const limit = Number(params.get('limit') ?? 50);
  // Where the month's first photo is (or would be) in gallery order: before the first older one.
  const older = images.findIndex((image) => monthOf(image) <= month);
  const start = older === -1 ? images.length : older;
  const inMonth = images.filter((image) => monthOf(image) === month);
  return {
    body: {
      month,
      count: inMonth.length,
      offset: start,
      galleryPage: Math.floor(start / limit) + 1,
      images: inMonth.slice((page - 1) * limit, page * limit),
      pagination: { currentPage: page, hasMore: page * limit < inMonth.length, totalImages: inMonth.length },
    },
  };
}

/**
 * fetch-stub routes answering the timeline calls from a list of images (newest first), or from a
 * function giving the list at each call (a library that changes). The months are those of the list
 * when stubbed; a month asked for later that holds nothing answers an empty page.
 */
export function timelineRoutes(images: readonly Image[] | (() => readonly Image[])): Record<string, (request: { url: string }) => StubResponse> {
  const list = typeof images === 'function' ? images : () => images;
  const routes: Record<string, (request: { url: string }) => StubResponse> = { 'GET /api/timeline': () => ({ body: timelineOf(list()) }) };
  for (const month of new Set(list().map(monthOf))) {
    routes[`GET /api/timeline/${month}`] = ({ url }) => timelineMonthAnswer(list(), month, url);
  }
  return routes;
}
