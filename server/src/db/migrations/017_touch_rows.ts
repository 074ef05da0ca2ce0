import type { Kysely } from 'kysely';

/**
 * Which touches left an image's row alone (`library_touches.facts_only`: a like, a tag): image
 * cards then keep the row — and the text made from it — and read only the tags and likes again.
 * Existing touches count as row changes (0), the safe side.
 */
export function touchRows() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('library_touches').addColumn('facts_only', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('library_touches').dropColumn('facts_only').execute();
    },
  };
}
