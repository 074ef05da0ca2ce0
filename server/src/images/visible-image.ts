import type { AuthUser } from '../auth/auth-user.js';
import { notFound } from '../http/errors.js';
import type { ImagesRepository, ImageWithMedia } from './images.repository.js';

/** Ids travel as strings (the spec's `_id`); anything that is not one of ours is simply not found. */
export function parseImageId(id: string): number | undefined {
  return /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}

/** Where one image a person may see is found: the read caches (read-caches/visible-image-finder.ts) or the database. */
export type VisibleImageSource = Pick<ImagesRepository, 'findVisible'>;

/** One ready image the person may see, or a 404 naming the id (DECISIONS §3: never a 403). */
export async function requireVisibleImage(images: VisibleImageSource, user: AuthUser, id: string): Promise<ImageWithMedia> {
  const numeric = parseImageId(id);
  const row = numeric === undefined ? undefined : await images.findVisible(user, numeric);
  if (!row) throw notFound(`Image ${id} was not found.`);
  return row;
}

/**
 * Every one of `ids` as a ready image the person may see, in the given order without repeats, or
 * a 404 naming the first that is not: bulk calls change all of them or nothing.
 */
export async function requireVisibleImages(
  images: ImagesRepository,
  user: AuthUser,
  ids: readonly string[],
): Promise<ImageWithMedia[]> {
  const unique = [...new Set(ids)];
  const numeric = unique.map((id) => parseImageId(id) ?? -1);
  const known = numeric.filter((id) => id >= 0);
  const [visible, rows] = await Promise.all([images.visibleAmong(user, known), images.withMedia(known)]);
  const visibleIds = new Set(visible.map((row) => row.id));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return unique.map((shown, index) => {
    const row = byId.get(numeric[index] ?? -1);
    // Images still being processed are hidden everywhere (spec §3), so they cannot be changed either.
    if (!row || !visibleIds.has(row.id) || row.ready !== 1) throw notFound(`Image ${shown} was not found, so nothing was changed.`);
    return row;
  });
}

/** Of `candidates` (a person's own list: liked, tagged, marked in), the ready ones they may still see, in order. */
export async function stillVisible(images: ImagesRepository, user: AuthUser, candidates: readonly number[]): Promise<ImageWithMedia[]> {
  const visible = new Set((await images.visibleAmong(user, candidates)).map((row) => row.id));
  const rows = await images.withMedia(candidates.filter((id) => visible.has(id)));
  return rows.filter((row) => row.ready === 1);
}
