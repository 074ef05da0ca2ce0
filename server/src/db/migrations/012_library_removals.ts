import type { Kysely } from 'kysely';

/**
 * Images that left the lists (trashed, deleted) or moved in the order, by library version, so that
 * cached id lists drop just those instead of being read again whole (read-caches/library-version.ts):
 * at a million photos a fresh read is seconds, a catch-up milliseconds.
 */
export function libraryRemovals() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('library_removals')
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('image_id', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('library_removals_version').on('library_removals').column('version').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('library_removals').execute();
    },
  };
}
