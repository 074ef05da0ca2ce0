import { type Kysely, sql } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * An index for searching file names by any part of them (`GET /search`: the name contains the
 * text), which a B-tree cannot answer: without it every search reads every image's name (3 ms at
 * 10,000 images, a third of a second at a million).
 * - SQLite: an FTS5 table of the names with the trigram tokenizer, kept by triggers (its rowid is
 *   the image's id). FTS5 answers `file_name like '%text%'` from the index for 3+ characters.
 * - PostgreSQL: pg_trgm's GIN index on `lower(file_name)`, which the planner uses for the same
 *   `like`. pg_trgm ships with PostgreSQL and is a trusted extension; where it cannot be created
 *   (a role without the right), search keeps working without the index and the server says so.
 */
export function fileNameSearch(context: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (context.dialect === 'sqlite') {
        await sql`create virtual table image_names using fts5(file_name, content='images', content_rowid='id', tokenize='trigram')`.execute(db);
        await sql`create trigger image_names_insert after insert on images begin
          insert into image_names(rowid, file_name) values (new.id, new.file_name); end`.execute(db);
        await sql`create trigger image_names_delete after delete on images begin
          insert into image_names(image_names, rowid, file_name) values ('delete', old.id, old.file_name); end`.execute(db);
        await sql`create trigger image_names_update after update of file_name on images begin
          insert into image_names(image_names, rowid, file_name) values ('delete', old.id, old.file_name);
          insert into image_names(rowid, file_name) values (new.id, new.file_name); end`.execute(db);
        await sql`insert into image_names(image_names) values ('rebuild')`.execute(db);
        return;
      }
      await sql`savepoint file_name_search`.execute(db);
      try {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create index images_file_name_trgm on images using gin (lower(file_name) gin_trgm_ops)`.execute(db);
        await sql`release savepoint file_name_search`.execute(db);
      } catch (error) {
        await sql`rollback to savepoint file_name_search`.execute(db);
        console.error(JSON.stringify({
          level: 40,
          msg: 'pg_trgm could not be set up, so searching file names reads every name (run "create extension pg_trgm" as a superuser, then restart)',
          err: error instanceof Error ? error.message : String(error),
        }));
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (context.dialect === 'sqlite') {
        for (const trigger of ['image_names_insert', 'image_names_delete', 'image_names_update']) await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
        await sql`drop table if exists image_names`.execute(db);
        return;
      }
      await sql`drop index if exists images_file_name_trgm`.execute(db);
    },
  };
}
