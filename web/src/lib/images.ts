import type { Image } from '@photo/contract';
import type { GridItem } from '@/components/ui/image-grid';
import { paths } from '@/config/paths';

/**
 * Router state handed to /image/{id} (spec §2: the detail "receives the search text and list context").
 * Every field is optional: the detail also opens from a typed-in address, with no state at all.
 */
export type ImageDetailState = {
  /** Ids to step through with ←/→, in the order the screen showed them. Without it the detail
   *  steps through the whole visible list (GET /api/gridimages without page). */
  ids?: string[];
  /** Path and query of the screen the image was opened from (`/search/cats`, `/profile?tab=tagged`):
   *  it picks the breadcrumb label and is where the breadcrumb leads back to. */
  origin?: string;
  /** The search text, when opened from search results. */
  searchText?: string;
};

/** Every query of the gallery (its timeline, months and filters) sits under this key. */
export const galleryQueryKey = ['gallery'] as const;

/** Spec §3: images without a display image, or named "disabled", are hidden in the gallery. */
export function isShownInGallery(image: Image): boolean {
  return Boolean(image.trimmedURL) && !image.imageName.toLowerCase().includes('disabled');
}

/** Grid tiles for images, each opening its detail. */
export function toGridItems(images: Image[]): GridItem[] {
  return images.map((image) => ({
    id: image._id,
    name: image.imageName,
    thumbnail: image.thumbnailURL ?? image.trimmedURL,
    placeholder: image.placeholder,
    width: image.width,
    height: image.height,
    href: paths.image.getHref(image._id),
    tags: image.tags,
  }));
}

/**
 * The images of consecutive pages, each once: pages are counted from the newest image, so an
 * upload (or a deletion) between two page loads shifts images across the page boundary.
 */
export function uniqueImages(pages: readonly { images: readonly Image[] }[]): Image[] {
  const seen = new Set<string>();
  const result: Image[] = [];
  for (const page of pages) {
    for (const image of page.images) {
      if (seen.has(image._id)) continue;
      seen.add(image._id);
      result.push(image);
    }
  }
  return result;
}
