import type { Kysely } from 'kysely';

/**
 * Who is writing a tus upload's bytes right now (decision 0010): one row per upload while a request
 * works on it, so that a PATCH arriving at another process waits for the first to stop — and asks it
 * to — instead of writing the same bytes beside it. `holder` is the process (an owner token, as for
 * claims), `expires_at` the end of its lease (renewed while the request lasts), `release_asked` set
 * by a request waiting for it.
 */
export function uploadLocks() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('upload_locks')
        .addColumn('upload_id', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('release_asked', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('upload_locks').execute();
    },
  };
}
