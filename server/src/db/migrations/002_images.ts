import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

export function images({ idColumn }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('media')
        .addColumn('id', 'integer', idColumn)
        .addColumn('content_hash', 'text', (c) => c.notNull().unique())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('byte_size', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('placeholder', 'text')
        .addColumn('taken_at', 'text')
        .addColumn('camera', 'text')
        .addColumn('gps_latitude', 'double precision')
        .addColumn('gps_longitude', 'double precision')
        .addColumn('original_key', 'text', (c) => c.notNull())
        .addColumn('display_key', 'text')
        .addColumn('thumbnail_key', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('claimed_at', 'text')
        .execute();
      await db.schema.createIndex('media_status_claimed_at').on('media').columns(['status', 'claimed_at']).execute();

      await db.schema
        .createTable('images')
        .addColumn('id', 'integer', idColumn)
        .addColumn('media_id', 'integer', (c) => c.notNull().references('media.id'))
        .addColumn('uploaded_by', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('image_name', 'text', (c) => c.notNull())
        .addColumn('ready', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('images_uploader_media', ['uploaded_by', 'media_id'])
        .execute();
      // Gallery pages walk these newest-first without touching the table (DECISIONS: no full scan per page).
      await db.schema.createIndex('images_ready_id').on('images').columns(['ready', 'id']).execute();
      await db.schema.createIndex('images_uploader_ready_id').on('images').columns(['uploaded_by', 'ready', 'id']).execute();
      await db.schema.createIndex('images_media_id').on('images').column('media_id').execute();

      // One row whose version changes with every change to who sees which image (see library.ts).
      await db.schema
        .createTable('library_state')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      await db.insertInto('library_state' as never).values({ id: 1, version: 1 } as never).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('library_state').execute();
      await db.schema.dropTable('images').execute();
      await db.schema.dropTable('media').execute();
    },
  };
}
