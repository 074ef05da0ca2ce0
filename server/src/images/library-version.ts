import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface LibraryVersion {
  version: number;
  /** Readers whose copy is older than this must re-read everything; newer ones may catch up. */
  resetVersion: number;
}

/**
 * The library's version: bumped, inside the same transaction, by every write that can change which
 * images anyone sees. Readers compare it with what they cached; since it lives in the database,
 * every process sees every other's changes.
 * - 'additions': images became visible; they are stamped with the returned version
 *   (`images.visible_since`), so a reader can fetch just those.
 * - 'reset': anything else (a delete, later a share granted or revoked): readers start over.
 */
export async function bumpLibraryVersion(db: Kysely<DB>, change: 'additions' | 'reset'): Promise<number> {
  const row = await db
    .updateTable('library_state')
    .set((eb) => ({
      version: eb('version', '+', 1),
      ...(change === 'reset' ? { reset_version: eb('version', '+', 1) } : {}),
    }))
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

export async function readLibraryVersion(db: Kysely<DB>): Promise<LibraryVersion> {
  const row = await db
    .selectFrom('library_state')
    .select(['version', 'reset_version'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return { version: Number(row.version), resetVersion: Number(row.reset_version) };
}
