import type { Kysely } from 'kysely';

/**
 * The Trash: a deleted image keeps its row (and its tags, likes, in-photo marks and share
 * memberships) with `trashed_at` and `trashed_by` set and `ready` 0, so every gallery index skips
 * it; it is restored by clearing them, or purged after TRASH_DAYS by the ordinary delete.
 * `(uploaded_by, trashed_at)` lists a person's trash newest first; `(trashed_at)` serves the
 * admin's trash and the purge (oldest first).
 *
 * The access layer says "not in the Trash" for every read (`(ready = 1 or trashed_at is null)`), so
 * the two indexes gallery reads are answered from (admins and all-access: `(ready, id, uploaded_by)`;
 * own uploads: `(uploaded_by, ready, id)`) carry `trashed_at` too: they stay covering, and
 * PostgreSQL keeps its index-only scans.
 */
export function trash() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('images').addColumn('trashed_at', 'text').execute();
      await db.schema.alterTable('images').addColumn('trashed_by', 'integer').execute();
      await db.schema.createIndex('images_trashed_at').on('images').column('trashed_at').execute();
      await db.schema.createIndex('images_uploader_trashed_at').on('images').columns(['uploaded_by', 'trashed_at']).execute();
      await replaceIndex(db, 'images_ready_id_uploader', ['ready', 'id', 'uploaded_by', 'trashed_at']);
      await replaceIndex(db, 'images_uploader_ready_id', ['uploaded_by', 'ready', 'id', 'trashed_at']);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await replaceIndex(db, 'images_uploader_ready_id', ['uploaded_by', 'ready', 'id']);
      await replaceIndex(db, 'images_ready_id_uploader', ['ready', 'id', 'uploaded_by']);
      await db.schema.dropIndex('images_uploader_trashed_at').execute();
      await db.schema.dropIndex('images_trashed_at').execute();
      await db.schema.alterTable('images').dropColumn('trashed_by').execute();
      await db.schema.alterTable('images').dropColumn('trashed_at').execute();
    },
  };
}

async function replaceIndex(db: Kysely<unknown>, name: string, columns: string[]): Promise<void> {
  await db.schema.dropIndex(name).execute();
  await db.schema.createIndex(name).on('images').columns(columns).execute();
}
