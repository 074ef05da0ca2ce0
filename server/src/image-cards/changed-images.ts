import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';

/** Every image may have changed: start over. */
export const EVERY_IMAGE = 'every-image';

/**
 * The images whose card (image-cards.ts) may differ between library versions `from` and `to`: those
 * touched in place (a like, a tag: `library_touches`), and those stamped visible since (new, restored,
 * moved in the order: `images.visible_since`). Or EVERY_IMAGE when a change since was about many
 * images at once (a tag renamed or merged) or the touches since were already pruned
 * (`relabel_version`). One statement, so one round trip and one snapshot on PostgreSQL.
 * `likesMatter: false` leaves out images whose only change was a like, for caches that show none.
 */
export async function changedImages(
  db: Kysely<DB>,
  from: number,
  to: number,
  { likesMatter = true }: { likesMatter?: boolean } = {},
): Promise<number[] | typeof EVERY_IMAGE> {
  let touches = db
    .selectFrom('library_touches')
    .select(sql<number>`image_id`.as('id'))
    .where('version', '>', from)
    .where('version', '<=', to);
  if (!likesMatter) touches = touches.where('likes_only', '=', 0);
  const rows = await touches
    .unionAll(
      db.selectFrom('images').select(sql<number>`id`.as('id')).where('visible_since', '>', from).where('visible_since', '<=', to),
    )
    .unionAll(db.selectFrom('library_state').select(sql<number>`-1`.as('id')).where('id', '=', 1).where('relabel_version', '>', from))
    .execute();
  const ids = rows.map((row) => Number(row.id));
  return ids.includes(-1) ? EVERY_IMAGE : ids;
}
