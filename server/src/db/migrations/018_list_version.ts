import { type Kysely, sql } from 'kysely';

/**
 * The last library version that changed which images are in anyone's list (`library_state.list_version`:
 * images became visible, left, or a share or an address changed what someone sees). A like or a tag
 * bumps the version but leaves it: an id list at least that new is still right, with no catch-up
 * statements (issue 13's soak: most versions are likes and tags, and every list read the database
 * twice after each). Existing libraries start at their current version, the safe side.
 */
export function listVersion() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('library_state').addColumn('list_version', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await sql`update library_state set list_version = version`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('library_state').dropColumn('list_version').execute();
    },
  };
}
