import { rgbaToThumbHash } from 'thumbhash';
import type { Image } from '@photo/contract';

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
