import type { Kysely } from 'kysely';

/**
 * Images whose card changed in place (a like, a tag, a camera fact read again), by library version,
 * so that per-image caches refresh just those (image-cards/); and the version before which every
 * card must be read again (a tag renamed or merged, old touches pruned).
 */
export function libraryTouches() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('library_touches')
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('image_id', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('library_touches_version').on('library_touches').column('version').execute();
      await db.schema.alterTable('library_state').addColumn('relabel_version', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('library_state').dropColumn('relabel_version').execute();
      await db.schema.dropTable('library_touches').execute();
    },
  };
}
