import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';

export interface LibraryVersion {
  version: number;
  /** Readers whose copy is older than this must re-read everything; newer ones may catch up. */
  resetVersion: number;
  /**
   * The last version that changed which images are in anyone's list ('additions', removals, 'reset');
   * an id list at least this new is right for `version` too (read-caches/visible-ids.ts).
   */
  listVersion: number;
}

/**
 * What changed:
 * - 'additions': images became visible; the caller stamps them with the returned version
 *   (`images.visible_since`), so a reader can fetch just those;
 * - `{ removed }`: these images left every list (trashed, deleted) or are about to come back at
 *   another place (stamped `visible_since` again: moved in the order); recorded in
 *   `library_removals`, so a reader drops just those;
 * - `{ touched }`: what these images show changed in place (a like, a tag, a fact read again), not
 *   which lists hold them; recorded in `library_touches`, so per-image caches (image-cards/) read
 *   just those again; `only: 'likes'` when only their likes changed, which caches that show no
 *   likes (a view's tags, search matches) may pass over; `only: 'tags'` when only their tags did:
 *   with either, the image's row is unchanged and its card keeps it;
 * - 'relabel': what many images show changed (a tag renamed or merged): per-image caches start
 *   over (`relabel_version`), lists stay;
 * - 'reset': anything else (a share granted, switched on or off; an address proven): readers start over.
 */
export type LibraryChange =
  | 'additions'
  | 'reset'
  | 'relabel'
  | { removed: readonly number[] }
  | { touched: readonly number[]; only?: 'likes' | 'tags' };

/** Removals (and touches) kept for readers to catch up with; older ones make readers start over (`pruneRemovals`). */
const KEPT_REMOVALS = 50_000;

/**
 * The library's version: bumped, inside the same transaction, by every write that can change which
 * images anyone sees. Readers compare it with what they cached; since it lives in the database,
 * every process sees every other's changes.
 */
export async function bumpLibraryVersion(db: Kysely<DB>, change: LibraryChange): Promise<number> {
  const row = await db
    .updateTable('library_state')
    .set((eb) => ({
      version: eb('version', '+', 1),
      ...(change === 'reset' ? { reset_version: eb('version', '+', 1) } : {}),
      ...(change === 'relabel' ? { relabel_version: eb('version', '+', 1) } : {}),
      ...(changesLists(change) ? { list_version: eb('version', '+', 1) } : {}),
    }))
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  const version = Number(row.version);
  if (typeof change === 'object') {
    const ids = 'removed' in change ? change.removed : [...new Set(change.touched)];
    const only = 'touched' in change ? change.only : undefined;
    const kind = { likes_only: only === 'likes' ? 1 : 0, facts_only: only === undefined ? 0 : 1 };
    for (let start = 0; start < ids.length; start += 500) {
      const chunk = ids.slice(start, start + 500);
      if ('removed' in change) await db.insertInto('library_removals').values(chunk.map((imageId) => ({ version, image_id: imageId }))).execute();
      else await db.insertInto('library_touches').values(chunk.map((imageId) => ({ version, image_id: imageId, ...kind }))).execute();
    }
  }
  return version;
}

/** Whether a change can move images into or out of someone's list (touches and relabels cannot). */
function changesLists(change: LibraryChange): boolean {
  return change === 'additions' || change === 'reset' || (typeof change === 'object' && 'removed' in change);
}

/** A reader must start over: what it would need to catch up with is no longer kept. */
export const START_OVER = 'start-over';

/**
 * Images removed (or moved) after library version `version`, or START_OVER when the reset version
 * has moved past it since the reader's version was read (a reset, or removals it needed pruned
 * meanwhile). One statement, so the removals and the reset version come from one snapshot: a
 * prune between two reads could otherwise hide removals from a reader that is far behind.
 */
export async function removedAfter(db: Kysely<DB>, version: number): Promise<number[] | typeof START_OVER> {
  const rows = await db
    .selectFrom('library_removals')
    .select(sql<number>`image_id`.as('id'))
    .where('version', '>', version)
    .unionAll(db.selectFrom('library_state').select(sql<number>`-1`.as('id')).where('id', '=', 1).where('reset_version', '>', version))
    .execute();
  const ids = rows.map((row) => Number(row.id));
  return ids.includes(-1) ? START_OVER : ids;
}

/**
 * Keeps the newest KEPT_REMOVALS removals. Readers whose copy is older than what was dropped can no
 * longer catch up: the reset version moves up to it (the version itself does not change).
 */
export function pruneRemovals(db: Kysely<DB>, keep = KEPT_REMOVALS): Promise<void> {
  return pruneLog(db, 'library_removals', 'reset_version', keep);
}

/** The same for touches: per-image caches older than what was dropped start over (`relabel_version`). */
export function pruneTouches(db: Kysely<DB>, keep = KEPT_REMOVALS): Promise<void> {
  return pruneLog(db, 'library_touches', 'relabel_version', keep);
}

async function pruneLog(
  db: Kysely<DB>,
  log: 'library_removals' | 'library_touches',
  startOver: 'reset_version' | 'relabel_version',
  keep: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const cut = await trx.selectFrom(log).select('version').orderBy('version', 'desc').offset(keep).limit(1).executeTakeFirst();
    if (!cut) return;
    const through = Number(cut.version);
    await trx.deleteFrom(log).where('version', '<=', through).execute();
    await trx.updateTable('library_state').set({ [startOver]: through }).where('id', '=', 1).where(startOver, '<', through).execute();
  });
}

export async function readLibraryVersion(db: Kysely<DB>): Promise<LibraryVersion> {
  const row = await db
    .selectFrom('library_state')
    .select(['version', 'reset_version', 'list_version'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return { version: Number(row.version), resetVersion: Number(row.reset_version), listVersion: Number(row.list_version) };
}
