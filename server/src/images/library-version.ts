import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * The library's version: bumped, inside the same transaction, by every write that can change which
 * images anyone sees (an image becoming ready, a delete, later a share). Readers compare it with
 * what they cached; since it lives in the database, every process sees every other's changes.
 */
export async function bumpLibraryVersion(db: Kysely<DB>): Promise<void> {
  await db
    .updateTable('library_state')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

export async function readLibraryVersion(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('library_state').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.version);
}
