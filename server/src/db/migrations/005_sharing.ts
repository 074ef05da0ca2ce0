import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Sharing (DECISIONS §3, §5): access records (all-access or restricted, per sharer and receiver
 * e-mail), the images of each restricted record, and each person's e-mail templates.
 */
export function sharing({ idColumn }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('access_records')
        .addColumn('id', 'integer', idColumn)
        .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('all', 'restricted')`))
        /** Lower-cased, like users.email, so a later sign-up with that address matches at once. */
        .addColumn('receiver_email', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        /** All-access only: SHA-256 of the link token, and the salt the token is derived from. */
        .addColumn('link_hash', 'text', (c) => c.unique())
        .addColumn('link_salt', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        // One record per sharer, kind and receiver: sharing again adds to it, never duplicates it.
        .addUniqueConstraint('access_records_owner_kind_receiver', ['owner_id', 'kind', 'receiver_email'])
        .execute();
      // onlyVisible() looks up the signed-in person's active records of each kind by e-mail.
      await db.schema
        .createIndex('access_records_receiver_active_kind')
        .on('access_records')
        .columns(['receiver_email', 'active', 'kind', 'id'])
        .execute();

      await db.schema
        .createTable('access_record_images')
        .addColumn('record_id', 'integer', (c) => c.notNull().references('access_records.id').onDelete('cascade'))
        .addColumn('image_id', 'integer', (c) => c.notNull().references('images.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        // By record then image: a record's images in one range; also makes a repeated share a no-op.
        .addPrimaryKeyConstraint('access_record_images_pk', ['record_id', 'image_id'])
        .execute();
      // Deleting an image cascades here.
      await db.schema.createIndex('access_record_images_image_id').on('access_record_images').column('image_id').execute();

      // Gallery ids of a person with shares are read by walking (ready, id) and checking the uploader
      // or the shares per entry; with the uploader in the index that walk never touches the table.
      await db.schema
        .createIndex('images_ready_id_uploader')
        .on('images')
        .columns(['ready', 'id', 'uploaded_by'])
        .execute();
      // Catching up with new images (`visibleAfter`: ready = 1 and visible_since > v) must start from
      // the few newest, not walk every ready image: with the shares' OR no uploader range applies, and
      // SQLite prefers an equality on `ready` over a range on `visible_since` unless one index has both.
      await db.schema
        .createIndex('images_ready_visible_since')
        .on('images')
        .columns(['ready', 'visible_since'])
        .execute();

      await db.schema
        .createTable('email_templates')
        .addColumn('id', 'integer', idColumn)
        .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('email_templates_owner_id').on('email_templates').columns(['owner_id', 'id']).execute();
      // At most one default per person (spec §4), whatever the service does.
      await db.schema
        .createIndex('email_templates_one_default')
        .on('email_templates')
        .column('owner_id')
        .unique()
        .where(sql.ref('is_default'), '=', 1)
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('email_templates').execute();
      await db.schema.dropIndex('images_ready_visible_since').execute();
      await db.schema.dropIndex('images_ready_id_uploader').execute();
      await db.schema.dropTable('access_record_images').execute();
      await db.schema.dropTable('access_records').execute();
    },
  };
}
