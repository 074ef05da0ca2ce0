import type { Kysely } from 'kysely';

/**
 * Which touches were likes alone (`library_touches.likes_only`): caches that do not show likes —
 * a view's tag vocabulary, search matches — can then keep their answers across a like (issue 13's
 * soak: most changes to a library in use are likes).
 */
export function touchKinds() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('library_touches').addColumn('likes_only', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('library_touches').dropColumn('likes_only').execute();
    },
  };
}
