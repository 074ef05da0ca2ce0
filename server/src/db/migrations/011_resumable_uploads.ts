import { sql } from 'kysely';
import type { Kysely } from 'kysely';

/**
 * Resumable uploads (issue 15, decision 0010): one row per tus upload, written before its first byte.
 * It says whose the upload is (someone else's id answers 404), what the client declared (name, type,
 * date, size, optionally the SHA-256), where it stands — `receiving` bytes, `finishing` (the last
 * byte is in and the file is being ingested, by the process in `claimed_by`, whose heartbeat is
 * `claimed_at`), `done` — and, once done, its outcome, which the outcome call and HEAD answer until
 * the row expires. `expires_at`: when an unfinished upload is abandoned (its bytes are removed),
 * and for a done one, when its outcome is forgotten.
 */
export function resumableUploads() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('resumable_uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('file_type', 'text')
        .addColumn('last_modified', 'text')
        .addColumn('declared_sha256', 'text')
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('receiving', 'finishing', 'done')`))
        .addColumn('content_sha256', 'text')
        .addColumn('outcome_status', 'text')
        .addColumn('outcome_reason', 'text')
        .addColumn('image_id', 'integer')
        .addColumn('claimed_by', 'text')
        .addColumn('claimed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();
      // A person's unfinished uploads (their count and bytes are limited); the expiry sweep.
      await db.schema.createIndex('resumable_uploads_user_status').on('resumable_uploads').columns(['user_id', 'status']).execute();
      await db.schema.createIndex('resumable_uploads_status_expires').on('resumable_uploads').columns(['status', 'expires_at']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('resumable_uploads').execute();
    },
  };
}
