import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * The timeline (issue 11, decision 0009): every list is ordered by when a photo was taken.
 *
 * `images.taken_key` is the instant an image sorts by, in milliseconds since 1970 (UTC): the EXIF
 * date taken (with its offset when recorded, else read as UTC), else the file's own date, else the
 * upload time; `date_source` says which ('taken', 'file', 'upload'). It lives on `images`, not on
 * `media`, because the fallbacks are per upload (each upload has its own time and file date), and
 * so that the gallery's indexes carry it: the two covering indexes gallery reads walk are rebuilt
 * on `(…, ready, taken_key, id, …)` in place of `(…, ready, id, …)`.
 *
 * `media` gains the camera facts the info panel shows (lens, exposure) and `facts_version`: 0 for
 * pictures whose facts were read before this migration, filled in the background from their
 * originals (image-info/facts-backfill.ts), which also fixes their keys' time-zone offsets.
 *
 * Existing images get their key here from what is stored: `media.taken_at` (wall-clock, read as
 * UTC), else the upload time; one UPDATE, so a million rows take seconds.
 */
export function timeline(context: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('images').addColumn('taken_key', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('images').addColumn('date_source', 'text', (c) => c.notNull().defaultTo('upload')).execute();
      await db.schema.alterTable('images').addColumn('file_modified_at', 'text').execute();
      for (const [column, type] of [
        ['taken_offset', 'text'],
        ['file_date', 'text'],
        ['lens', 'text'],
        ['f_number', 'real'],
        ['exposure_time', 'real'],
        ['iso', 'integer'],
        ['focal_length', 'real'],
      ] as const) {
        await db.schema.alterTable('media').addColumn(column, type).execute();
      }
      await db.schema.alterTable('media').addColumn('facts_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createIndex('media_facts_version').on('media').columns(['facts_version', 'id']).execute();

      const epochMs = (column: string) =>
        context.dialect === 'postgres'
          ? sql.raw(`(extract(epoch from (${column})::timestamptz) * 1000)::bigint`)
          : sql.raw(`cast(round(unixepoch(${column}, 'subsec') * 1000) as integer)`);
      // Stored dates have no offset: 'YYYY-MM-DDTHH:MM:SS' is read as UTC (PostgreSQL needs the 'Z').
      const takenText = context.dialect === 'postgres' ? `media.taken_at || 'Z'` : 'media.taken_at';
      await sql`
        update images set
          taken_key = coalesce(
            (select ${epochMs(takenText)} from media where media.id = images.media_id and media.taken_at is not null),
            ${epochMs('images.created_at')}
          ),
          date_source = case
            when exists (select 1 from media where media.id = images.media_id and media.taken_at is not null) then 'taken'
            else 'upload'
          end
      `.execute(db);

      await replaceIndex(db, 'images_ready_id_uploader', 'images_ready_taken', ['ready', 'taken_key', 'id', 'uploaded_by', 'trashed_at']);
      await replaceIndex(db, 'images_uploader_ready_id', 'images_uploader_ready_taken', ['uploaded_by', 'ready', 'taken_key', 'id', 'trashed_at']);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await replaceIndex(db, 'images_uploader_ready_taken', 'images_uploader_ready_id', ['uploaded_by', 'ready', 'id', 'trashed_at']);
      await replaceIndex(db, 'images_ready_taken', 'images_ready_id_uploader', ['ready', 'id', 'uploaded_by', 'trashed_at']);
      await db.schema.dropIndex('media_facts_version').execute();
      for (const column of ['facts_version', 'focal_length', 'iso', 'exposure_time', 'f_number', 'lens', 'file_date', 'taken_offset']) {
        await db.schema.alterTable('media').dropColumn(column).execute();
      }
      for (const column of ['file_modified_at', 'date_source', 'taken_key']) {
        await db.schema.alterTable('images').dropColumn(column).execute();
      }
    },
  };
}

async function replaceIndex(db: Kysely<unknown>, from: string, to: string, columns: string[]): Promise<void> {
  await db.schema.dropIndex(from).execute();
  await db.schema.createIndex(to).on('images').columns(columns).execute();
}
