import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.js';
import { onlyVisible, seesWholeLibrary, visibleParts } from './image-visibility.js';

/**
 * Helpers for caches of answers derived from "the images this person may see" (the tag vocabulary
 * and its counts). They only ever ask `onlyVisible` / `visibleParts`: the rule itself lives in
 * image-visibility.ts and nowhere else.
 */

/**
 * The cache key of a person's visible set. Admins share one. Anyone else's set follows from their
 * id, their address and whether it is proven (shares match by proven address), so all three are in
 * the key: a changed address or a new proof can never be answered from the old set's cache, even
 * before the library version moves.
 */
export function visibilityScope(user: AuthUser): string {
  return user.role === 'admin' ? 'admin' : `user:${user.id}:${user.emailConfirmed ? 'proven' : 'unproven'}:${user.email}`;
}

/** A subquery of image ids, for `image_id in (…)`. */
export type ImageIdsQuery = SelectQueryBuilder<DB, 'images', { id: number }>;

/**
 * What a person sees of the library, for answers counted over it:
 * - `whole`: every ready image (an admin, an all-access recipient), so counts over the whole
 *   library (`tags.usage_count`) are exactly theirs;
 * - otherwise the ids of what they see (`undefined`: nothing), as the union of the non-empty
 *   `visibleParts`, each one index range (own uploads, restricted shares). Parts found empty are
 *   left out, so the planners never cost an empty all-access part as the whole library.
 */
export type LibraryView = { whole: true } | { whole: false; imageIds: ImageIdsQuery | undefined };

/**
 * The number of ready images (before any visibility condition). Trashed images are never ready, and
 * their tags are out of `tags.usage_count` while they are (trash/), so a whole view's counts hold.
 */
const counted = (db: Kysely<DB>) => db.selectFrom('images').select((eb) => eb.fn.countAll().as('n')).where('images.ready', '=', 1);

/**
 * Decided by counting, so it holds whatever the rule says; callers cache it per library version.
 * One statement (one snapshot on both databases) counts the ready images and each visible part:
 * a part as large as the library means the view is whole; parts adding up to less mean some image
 * is unseen (for a restricted share that is a few hundred index probes, not a walk). Only when
 * neither holds does the exact count run, again total and visible in ONE statement: two reads
 * could straddle a change and make a partial view look whole. "Not whole" is the safe answer.
 */
export async function viewOf(db: Kysely<DB>, user: AuthUser): Promise<LibraryView> {
  // onlyVisible adds no condition at all for admins, nor for an active all-access share: nothing to
  // count (one primary-key probe instead of counting the library: issue 13, suggestions under a crowd).
  if (await seesWholeLibrary(db, user)) return { whole: true };
  const partCounts = visibleParts(counted(db), user);
  const row = (await db
    .selectNoFrom(() => [counted(db).as('total'), ...partCounts.map((part, index) => part.as(`part${index}`))])
    .executeTakeFirstOrThrow()) as Record<string, unknown>;
  const total = Number(row['total']);
  const counts = partCounts.map((_, index) => Number(row[`part${index}`]));
  if (counts.some((n) => n === total)) return { whole: true };
  if (counts.reduce((sum, n) => sum + n, 0) >= total && (await countsWhole(db, user))) return { whole: true };
  const parts = visibleParts(db.selectFrom('images').select('images.id').where('images.ready', '=', 1), user).filter((_, i) => (counts[i] ?? 0) > 0);
  const [first, ...rest] = parts;
  return { whole: false, imageIds: first && rest.reduce((union, part) => union.union(part), first) };
}

async function countsWhole(db: Kysely<DB>, user: AuthUser): Promise<boolean> {
  const row = await db.selectNoFrom(() => [counted(db).as('total'), onlyVisible(counted(db), user).as('visible')]).executeTakeFirstOrThrow();
  return Number(row.total) === Number(row.visible);
}
