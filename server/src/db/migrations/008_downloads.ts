import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Downloads (server/src/downloads/): `access_records.allow_downloads` lets the owner of an
 * all-access link switch the public page's downloads off (on by default, for existing links too);
 * `download_tickets` are the short-lived URLs the web app navigates to once it has asked, with its
 * token, for an original or a zip: bound to the person and the exact ids, checked again when used.
 * Only the ticket's SHA-256 is stored.
 */
export function downloads({ idColumn }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('access_records').addColumn('allow_downloads', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      await db.schema
        .createTable('download_tickets')
        .addColumn('id', 'integer', idColumn)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('original', 'zip')`))
        /** JSON array of image ids, in the order asked. */
        .addColumn('image_ids', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('download_tickets_expires_at').on('download_tickets').column('expires_at').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('download_tickets').execute();
      await db.schema.alterTable('access_records').dropColumn('allow_downloads').execute();
    },
  };
}
