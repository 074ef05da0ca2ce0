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
 * The images in a person's view whose tags or place may differ between library versions `from` and
 * `to` (the person's request is at `to`): images touched in place or added since that they see.
 * Empty when every change since was to an image outside their view — a like or tag on someone
 * else's photo, an upload they cannot see — so answers cached per scope (the tag vocabulary of a
 * restricted share) can be kept, or brought up to date for just these images, instead of counted
 * again after every like in the library (issue 13's soak: 600 recounts in 30 s, 3 ms each).
 * Conservative: any removal, reset or relabel since, or a change too big to check, is START_OVER.
 * `likesMatter: false` for answers that show no likes (a view's tags): a like then changes nothing.
 */
export async function changesInView(
  db: Kysely<DB>,
  visibleIds: VisibleIds,
  user: AuthUser,
  from: number,
  to: number,
  options: { likesMatter?: boolean } = {},
): Promise<number[] | typeof START_OVER> {
  const [changed, removed] = await Promise.all([changedImages(db, from, to, options), removedAfter(db, from)]);
  if (changed === EVERY_IMAGE || removed === START_OVER || removed.length > 0 || changed.length > MAX_CHANGED) return START_OVER;
  if (changed.length === 0) return [];
  const { version, ids } = await visibleIds.of(user);
  if (version !== to || ids.length > MAX_LISTED) return START_OVER;
  // One pass over the list: up to 100 changed images against a list of up to 20,000.
  const wanted = new Set(changed);
  const inView: number[] = [];
  for (const id of ids) if (wanted.delete(id)) inView.push(id);
  return inView;
}
