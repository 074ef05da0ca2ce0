import type { Kysely } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.js';
import { changedImages, EVERY_IMAGE } from '../image-cards/changed-images.js';
import { removedAfter, START_OVER } from './library-version.js';
import type { VisibleIds } from './visible-ids.js';

/** Past these, a caller just reads again: checking would cost more than it saves. */
const MAX_CHANGED = 100;
const MAX_LISTED = 20_000;

/**
 * Whether nothing a person sees — which images, and what is on them — can differ between library
 * versions `from` and `to` (the person's request is at `to`). True when every change since was to
 * an image outside their view: a like or tag on someone else's photo, an upload they cannot see.
 * Answers cached per scope (the tag vocabulary of a restricted share) can then be kept instead of
 * counted again after every like in the library (issue 13's soak: 600 recounts in 30 s, 3 ms each).
 * Conservative: any removal, reset or relabel since, or a change too big to check, says no.
 * `likesMatter: false` for answers that show no likes (a view's tags): a like then changes nothing.
 */
export async function nothingChangedInView(
  db: Kysely<DB>,
  visibleIds: VisibleIds,
  user: AuthUser,
  from: number,
  to: number,
  options: { likesMatter?: boolean } = {},
): Promise<boolean> {
  const [changed, removed] = await Promise.all([changedImages(db, from, to, options), removedAfter(db, from)]);
  if (changed === EVERY_IMAGE || removed === START_OVER || removed.length > 0 || changed.length > MAX_CHANGED) return false;
  if (changed.length === 0) return true;
  const { version, ids } = await visibleIds.of(user);
  if (version !== to || ids.length > MAX_LISTED) return false;
  return !changed.some((id) => ids.includes(id));
}
