import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.js';

/**
 * Who sees which image (DECISIONS §3), applied to any query over the `images` table. Every query
 * that lists or reads images for a person goes through this, so the rule lives in one place:
 * - admin: every image not in the Trash (nobody sees those outside it: `notTrashed`);
 * - user: the images they uploaded, plus — once the account has proven it owns its e-mail address
 *   (decision 0006) — those covered by an ACTIVE access record whose receiver e-mail is that address:
 *   an all-access record covers every image, a restricted one the images listed in it. Matching by
 *   address means someone who signs up later with a shared-to address sees the share as soon as
 *   they have opened a link mailed to it; an unproven account sees only its own uploads.
 *
 * Both share checks are uncorrelated subqueries: the all-access EXISTS is evaluated once per query
 * (so an all-access recipient walks the `(ready, id, uploaded_by)` index like an admin, with one
 * constant OR per entry), and the restricted image ids are read once into a hash/bloom filter
 * (`access_records_receiver_active_kind`, then `access_record_images` by record). Single-row reads
 * (an image by id) stay a primary-key lookup plus those two small probes.
 *
 * Any write that changes what this condition selects must bump the library version in the same
 * transaction (`bumpLibraryVersion`): the visible-id cache (`read-caches/visible-ids.ts`) relies on it.
 * Only images becoming ready are 'additions'; a share granted, switched on or off is a 'reset'.
 */
export function onlyVisible<TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  user: AuthUser,
): SelectQueryBuilder<DB, TB, O> {
  const kept = notTrashed(query);
  if (user.role === 'admin') return kept;
  if (!user.emailConfirmed) return kept.where(ownUpload(user));
  return kept.where(sql<boolean>`(${ownUpload(user)} or ${allAccessGranted(user)} or ${sharedWithRestricted(user)})`);
}

/**
 * Nobody — admins included — sees an image in the Trash outside the Trash (trash/). A trashed image
 * always has `ready` 0 (trashing sets it, `markReady` skips trashed images, a restore sets it back),
 * so `ready = 1` already implies "not trashed": written this way, list reads (which ask for
 * `ready = 1`) are still answered from the `(ready, id, …)` indexes — SQLite never fetches the row
 * for the second half — while single-row and not-ready reads (an image by id, a delete) check it.
 */
function notTrashed<TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return query.where(sql<boolean>`(${sql.ref('images.ready')} = 1 or ${sql.ref('images.trashed_at')} is null)`);
}

/**
 * The same rule as `onlyVisible`, as parts whose union is the visible set, each answerable from one
 * index. For walks that stop at the first match (previous/next): under the one OR condition a plain
 * user's step can walk most of a large library; per part it is one index probe each (the all-access
 * EXISTS is evaluated once and, when false, skips its part entirely).
 */
export function visibleParts<TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  user: AuthUser,
): SelectQueryBuilder<DB, TB, O>[] {
  const kept = notTrashed(query);
  if (user.role === 'admin') return [kept];
  if (!user.emailConfirmed) return [kept.where(ownUpload(user))];
  return [ownUpload(user), allAccessGranted(user), sharedWithRestricted(user)].map((part) => kept.where(part));
}

/**
 * Whether the person sees every image anyone can — an admin, or a proven address with an active
 * all-access record — so that caches of "what this person sees" can share one copy of the whole
 * library (read-caches/visible-ids.ts). Exactly when `onlyVisible` reduces to `notTrashed` for them.
 */
export async function seesWholeLibrary(db: Kysely<DB>, user: AuthUser): Promise<boolean> {
  if (user.role === 'admin') return true;
  const address = provenAddress(user);
  if (address === null) return false;
  const record = await db
    .selectFrom('access_records')
    .select('id')
    .where('receiver_email', '=', address)
    .where('active', '=', 1)
    .where('kind', '=', 'all')
    .executeTakeFirst();
  return record !== undefined;
}

/** The whole library's part of a query (what `seesWholeLibrary` viewers see): every image not in the Trash. */
export function onlyVisibleToWholeLibraryViewers<TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return notTrashed(query);
}

/**
 * The address shares reach this person by: their e-mail once proven (decision 0006), else none.
 * Every lookup of access records by receiver goes through this, never through `user.email`.
 */
export function provenAddress(user: AuthUser): string | null {
  return user.emailConfirmed ? user.email : null;
}

const ownUpload = (user: AuthUser) => sql<boolean>`${sql.ref('images.uploaded_by')} = ${user.id}`;

const allAccessGranted = (user: AuthUser) => sql<boolean>`exists (
  select 1 from access_records all_access
  where all_access.receiver_email = ${provenAddress(user)} and all_access.active = 1 and all_access.kind = 'all'
)`;

const sharedWithRestricted = (user: AuthUser) => sql<boolean>`${sql.ref('images.id')} in (
  select shared.image_id from access_record_images shared
  inner join access_records restricted on restricted.id = shared.record_id
  where restricted.receiver_email = ${provenAddress(user)} and restricted.active = 1 and restricted.kind = 'restricted'
)`;

/** Deleting (DECISIONS §3), and restoring from or purging the Trash: the uploader or an admin. */
export function mayDelete(user: AuthUser, image: { uploaded_by: number }): boolean {
  return user.role === 'admin' || image.uploaded_by === user.id;
}

/** Selective (restricted) sharing (DECISIONS §3): images the sharer uploaded, any image for an admin. */
export function mayShareSelectively(user: AuthUser, image: { uploaded_by: number }): boolean {
  return user.role === 'admin' || image.uploaded_by === user.id;
}

/** All-access sharing (DECISIONS §3): admins only (the call itself is declared admin-only too). */
export function mayShareAll(user: AuthUser): boolean {
  return user.role === 'admin';
}

/**
 * The Trash as a person sees it (trash/): an admin, every trashed image; anyone else, the trashed
 * images they uploaded (only the uploader or an admin can have trashed them: `mayDelete`). The only
 * place trashed images are seen — their list, restore, delete forever, and their thumbnails there.
 */
export function onlyInTrashOf<TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  user: AuthUser,
): SelectQueryBuilder<DB, TB, O> {
  const trashed = query.where(sql<boolean>`${sql.ref('images.trashed_at')} is not null`);
  return user.role === 'admin' ? trashed : trashed.where(ownUpload(user));
}
