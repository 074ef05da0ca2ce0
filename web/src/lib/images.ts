import type { Image } from '@photo/contract';
import type { GridItem } from '@/components/ui/image-grid';
import { paths } from '@/config/paths';

/** Where an image detail was opened from; it picks the detail's breadcrumb label (spec §2). */
export type ImageOrigin = 'search' | 'favorites' | 'tagged' | 'uploaded' | 'profile' | 'gallery' | 'home' | 'shared';

/** Router state handed to /image/{id}: the list to step through and where it came from. */
export type ImageDetailState = { ids: string[]; origin: ImageOrigin; searchText?: string };

/** Spec §3: images without a display image, or named "disabled", are hidden in the gallery. */
export function isShownInGallery(image: Image): boolean {
  return Boolean(image.trimmedURL) && !image.imageName.toLowerCase().includes('disabled');
}

/** Grid tiles for a list of images, each opening the detail with the whole list as context. */
export function toGridItems(images: Image[], origin: ImageOrigin, searchText?: string): GridItem[] {
  const state: ImageDetailState = { ids: images.map((image) => image._id), origin, searchText };
  return images.map((image) => ({
    id: image._id,
    name: image.imageName,
    thumbnail: image.thumbnailURL ?? image.trimmedURL,
    href: paths.image.getHref(image._id),
    tags: image.tags,
    state,
  }));
}
