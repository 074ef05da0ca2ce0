import type { Image } from '@photo/contract';
import { isShownInGallery } from '@/lib/images';
import { utcDayOf } from './labels';
import type { DayCounts } from './layout';

/** What the timeline keeps of one answer of GET /api/timeline/:month. */
export type MonthPageData = { count: number; images: Image[] };

/** The loaded pages of one month, and the month itself once every page of it is there. */
export type LoadedMonth = {
  pages: ReadonlyMap<number, MonthPageData>;
  /** The month's photos the gallery shows, in order, once every page is loaded (and agrees on the count); else null. */
  complete: Image[] | null;
};

export function summarizeMonth(pages: ReadonlyMap<number, MonthPageData>, pageSize: number): LoadedMonth {
  const counts = new Set([...pages.values()].map((page) => page.count));
  const count = counts.size === 1 ? [...counts][0]! : -1;
  const needed = Math.max(1, Math.ceil(count / pageSize));
  let complete: Image[] | null = null;
  if (count >= 0 && Array.from({ length: needed }, (_, index) => index + 1).every((page) => pages.has(page))) {
    complete = [];
    for (let page = 1; page <= needed; page += 1) complete.push(...pages.get(page)!.images.filter(isShownInGallery));
  }
  return { pages, complete };
}

/** `[day, photos]` of photos in gallery order (newest first), by the UTC day of `sortedAt`. */
export function daysOfImages(images: readonly Image[]): DayCounts {
  const days: [number, number][] = [];
  for (const image of images) {
    const day = utcDayOf(image.sortedAt);
    const last = days.at(-1);
    if (last && last[0] === day) last[1] += 1;
    else days.push([day, 1]);
  }
  return days;
}

/** The photo at `index` of a month, when loaded and shown in the gallery. */
export function loadedImageAt(loaded: LoadedMonth | undefined, index: number, pageSize: number): Image | undefined {
  if (!loaded) return undefined;
  if (loaded.complete) return loaded.complete[index];
  const image = loaded.pages.get(Math.floor(index / pageSize) + 1)?.images[index % pageSize];
  return image && isShownInGallery(image) ? image : undefined;
}

/** Every loaded photo the gallery shows, in gallery order (months newest first), each once. */
export function loadedImagesOf(months: ReadonlyMap<string, LoadedMonth>): Image[] {
  const seen = new Set<string>();
  const images: Image[] = [];
  for (const month of [...months.keys()].sort().reverse()) {
    const loaded = months.get(month)!;
    const pages = [...loaded.pages.keys()].sort((a, b) => a - b).map((page) => loaded.pages.get(page)!);
    for (const page of pages) {
      for (const image of page.images) {
        if (seen.has(image._id) || !isShownInGallery(image)) continue;
        seen.add(image._id);
        images.push(image);
      }
    }
  }
  return images;
}
