import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';

/** Every image may have changed: start over. */
export const EVERY_IMAGE = 'every-image';

/** Changed images, and among them those whose row itself may differ (not just their tags or likes). */
export interface ChangedCards {
  ids: number[];
  rowsChanged: number[];
}

/**
 * The images whose card (image-cards.ts) may differ between library versions `from` and `to`: those
 * touched in place (a like, a tag, a fact read again: `library_touches`), and those stamped visible
 * since (new, restored, moved in the order: `images.visible_since`). Or EVERY_IMAGE when a change
 * since was about many images at once (a tag renamed or merged) or the touches since were already
 * pruned (`relabel_version`). One statement, so one round trip and one snapshot on PostgreSQL.
 * `likesMatter: false` leaves out images whose only change was a like, for caches that show none.
 */
export async function changedImages(
  db: Kysely<DB>,
  from: number,
  to: number,
  { likesMatter = true }: { likesMatter?: boolean } = {},
): Promise<number[] | typeof EVERY_IMAGE> {
  const changed = await changedCards(db, from, to, { likesMatter });
  return changed === EVERY_IMAGE ? EVERY_IMAGE : changed.ids;
}

/** As `changedImages`, telling apart the images whose row may have changed from those whose tags or likes alone did. */
export async function changedCards(
  db: Kysely<DB>,
  from: number,
  to: number,
  { likesMatter = true }: { likesMatter?: boolean } = {},
): Promise<ChangedCards | typeof EVERY_IMAGE> {
  let touches = db
    .selectFrom('library_touches')
    .select([sql<number>`image_id`.as('id'), sql<number>`facts_only`.as('facts_only')])
    .where('version', '>', from)
    .where('version', '<=', to);
  if (!likesMatter) touches = touches.where('likes_only', '=', 0);
  const rows = await touches
    .unionAll(
      db
        .selectFrom('images')
        .select([sql<number>`id`.as('id'), sql<number>`0`.as('facts_only')])
        .where('visible_since', '>', from)
        .where('visible_since', '<=', to),
    )
    .unionAll(
      db
        .selectFrom('library_state')
        .select([sql<number>`-1`.as('id'), sql<number>`0`.as('facts_only')])
        .where('id', '=', 1)
        .where('relabel_version', '>', from),
    )
    .execute();
  const ids: number[] = [];
  const rowsChanged: number[] = [];
  for (const row of rows) {
    const id = Number(row.id);
    if (id === -1) return EVERY_IMAGE;
    ids.push(id);
    if (Number(row.facts_only) === 0) rowsChanged.push(id);
  }
  return { ids, rowsChanged };
}
