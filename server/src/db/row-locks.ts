import { type Kysely, PostgresAdapter } from 'kysely';
import type { DB } from './schema.js';

/**
 * Whether `db` has row locks (`for update`, `for share`): PostgreSQL does; SQLite has no syntax for
 * them and needs none, because a write transaction there holds the whole database (and, in this
 * process, the one connection: Kysely queues every other query behind it).
 */
export function hasRowLocks(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
