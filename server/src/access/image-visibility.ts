import { type SelectQueryBuilder, sql } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.js';

/**
 * Who sees which image (DECISIONS §3), applied to any query over the `images` table. Every query
 * that lists or reads images for a person goes through this, so the rule lives in one place:
 * - admin: every image (no condition, so pages are read straight off the `images_ready_id` index);
 * - user: the images they uploaded (`images_uploader_ready_id`). Access records granted to them are
 *   added here by the sharing domain.
 * Any write that changes what this condition selects must bump the library version in the same
 * transaction (`bumpLibraryVersion`): the visible-id cache (`images/visible-ids.ts`) relies on it.
 * Only images becoming ready are 'additions'; a share granted or revoked is a 'reset'.
 */
export function onlyVisible<TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  user: AuthUser,
): SelectQueryBuilder<DB, TB, O> {
  if (user.role === 'admin') return query;
  return query.where(sql.ref('images.uploaded_by'), '=', user.id);
}

/** Deleting (DECISIONS §3): the uploader or an admin. */
export function mayDelete(user: AuthUser, image: { uploaded_by: number }): boolean {
  return user.role === 'admin' || image.uploaded_by === user.id;
}
