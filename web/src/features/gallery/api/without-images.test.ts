import type { Image } from '@photo/contract';
import { describe, expect, it } from 'vitest';
import type { GalleryPage } from './get-gallery';
import { withoutImages } from './without-images';

const img = (n: number) => ({ _id: `i${n}` }) as Image;
const page = (page: number, from: number, count: number, hasMore: boolean): GalleryPage => ({
  page,
  hasMore,
  images: Array.from({ length: count }, (_, index) => img(from + index)),
});
const ids = (pages: GalleryPage[]) => pages.flatMap((p) => p.images.map((image) => image._id));

describe('withoutImages', () => {
  it('re-cuts the rest into pages of 50 and asks for the short page again', () => {
    const data = { pages: [page(1, 0, 50, true), page(2, 50, 50, true)], pageParams: [1, 2] };
    const next = withoutImages(data, new Set(['i3', 'i70']));
    expect(ids(next.pages)).toHaveLength(98);
    expect(ids(next.pages)).not.toContain('i3');
    expect(next.pages.map((p) => [p.page, p.images.length, p.hasMore, p.refill])).toEqual([
      [1, 50, true, false],
      [2, 48, true, true],
    ]);
    expect(next.pageParams).toEqual([1, 2]);
  });

  it('keeps the end of the gallery as the end', () => {
    const data = { pages: [page(1, 0, 50, true), page(2, 50, 10, false)], pageParams: [1, 2] };
    const next = withoutImages(data, new Set(['i55']));
    expect(next.pages.at(-1)).toMatchObject({ page: 2, hasMore: false });
    expect(next.pages.at(-1)).not.toHaveProperty('refill');
  });

  it('leaves one empty page when everything loaded was deleted', () => {
    const data = { pages: [page(1, 0, 2, false)], pageParams: [1] };
    expect(withoutImages(data, new Set(['i0', 'i1'])).pages).toEqual([{ page: 1, images: [], hasMore: false }]);
  });
});
