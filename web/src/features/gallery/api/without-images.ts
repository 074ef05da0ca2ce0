import { images as imageContract } from '@photo/contract';
import type { InfiniteData } from '@tanstack/react-query';
import { uniqueImages } from '@/lib/images';
import type { GalleryPage } from './get-gallery';

const PAGE_SIZE = imageContract.GALLERY_PAGE_SIZE;

/**
 * The loaded gallery after a deletion, without refetching every loaded page. The server's pages
 * count from the newest image, so deleting k loaded images pulls k later images back into the
 * loaded range. The remaining images are cut into pages of 50 again; a short last page is marked
 * `refill`, so the next load asks for that page number again (its known images are dropped as
 * duplicates) and nothing is skipped.
 */
export function withoutImages(data: InfiniteData<GalleryPage, number>, removed: ReadonlySet<string>): InfiniteData<GalleryPage, number> {
  const remaining = uniqueImages(data.pages).filter((image) => !removed.has(image._id));
  const hasMore = data.pages.at(-1)?.hasMore ?? false;
  const pages: GalleryPage[] = [];
  for (let start = 0; start < remaining.length || pages.length === 0; start += PAGE_SIZE) {
    const images = remaining.slice(start, start + PAGE_SIZE);
    pages.push({ images, page: pages.length + 1, hasMore: true, refill: images.length < PAGE_SIZE });
  }
  const last = pages.at(-1)!;
  last.hasMore = hasMore;
  if (!hasMore) delete last.refill;
  return { pages, pageParams: pages.map((page) => page.page) };
}
