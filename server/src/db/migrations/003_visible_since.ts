import type { Kysely } from 'kysely';

/**
 * Lets readers catch up with new images instead of re-reading every visible id: each image records
 * the library version at which it became visible, and the library records the last version whose
 * change was more than additions (a delete, a share revoked), after which readers start over.
 */
export function visibleSince() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('images').addColumn('visible_since', 'bigint').execute();
      await db.schema.createIndex('images_visible_since').on('images').column('visible_since').execute();
      await db.schema.alterTable('library_state').addColumn('reset_version', 'bigint', (c) => c.notNull().defaultTo(1)).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('library_state').dropColumn('reset_version').execute();
      await db.schema.dropIndex('images_visible_since').execute();
      await db.schema.alterTable('images').dropColumn('visible_since').execute();
    },
  };
}
