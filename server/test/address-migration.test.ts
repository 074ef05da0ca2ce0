import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { allMigrations } from '../src/db/migrations/index.js';
import { createPostgresDatabase, testDatabases } from './support/databases.js';

/**
 * Migration 006 on a library that already has accounts (decision 0006): admins count as confirmed;
 * every other account must prove its address once, because before this change anyone could have
 * signed up with any address and nothing tells a real owner from a claim.
 */
describe.each(testDatabases)('accounts that existed before proven addresses, on %s', (kind) => {
  it('marks admins confirmed and everyone else unconfirmed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'photo-migration-'));
    const pg = kind === 'postgres' ? await createPostgresDatabase() : undefined;
    const database: Database = openDatabase({
      database: pg ? { kind: 'postgres', url: pg.url } : { kind: 'sqlite', file: path.join(dir, 'photos.sqlite') },
    });
    try {
      const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => allMigrations(database.dialect) } });
      const before = await migrator.migrateTo('005_sharing');
      expect(before.error).toBeUndefined();
      const now = new Date().toISOString();
      for (const [email, role] of [['admin@example.com', 'admin'], ['old@example.com', 'user']] as const) {
        await sql`insert into users (username, email, password_hash, role, created_at, updated_at)
                  values (${email}, ${email}, 'x', ${role}, ${now}, ${now})`.execute(database.db);
      }
      await migrateToLatest(database);
      const rows = await database.db.selectFrom('users').select(['email', 'email_confirmed_at']).orderBy('email').execute();
      expect(rows).toEqual([
        { email: 'admin@example.com', email_confirmed_at: now },
        { email: 'old@example.com', email_confirmed_at: null },
      ]);
    } finally {
      await database.close();
      await pg?.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
