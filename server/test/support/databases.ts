import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export type TestDatabaseKind = 'sqlite' | 'postgres';

/** Both databases every integration test runs on (DECISIONS §1: SQLite by default, PostgreSQL at scale). */
export const testDatabases: TestDatabaseKind[] = ['sqlite', 'postgres'];

/** Both databases and both storages, each at least once: SQLite with local files, PostgreSQL with S3 (s3rver). */
export const testSetups: { database: TestDatabaseKind; storage: 'local' | 's3' }[] = [
  { database: 'sqlite', storage: 'local' },
  { database: 'postgres', storage: 's3' },
];

/** The machine's PostgreSQL: trust auth on 127.0.0.1:5432, database `test`. */
export const POSTGRES_ADMIN_URL = process.env['TEST_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A brand-new PostgreSQL database for one test file, dropped again by the returned function. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `photo_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        // Backends of a just-closed pool may still be exiting: wait for them rather than killing them,
        // since a killed backend sends its client an error that surfaces as an unhandled one.
        for (let attempt = 0; ; attempt += 1) {
          try {
            await client.query(`drop database if exists ${name}${attempt >= 50 ? ' with (force)' : ''}`);
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A fresh database of the given kind with every migration run, opened in the test's own process (for
 * tests of a repository or cache without a server); `close` closes it and removes it.
 */
export async function openMigratedDatabase(kind: TestDatabaseKind): Promise<{ database: Database; close(): Promise<void> }> {
  if (kind === 'postgres') {
    const pgDb = await createPostgresDatabase();
    const database = openDatabase({ database: { kind: 'postgres', url: pgDb.url } });
    const close = async () => {
      await database.close();
      await pgDb.drop();
    };
    await migrateToLatest(database).catch(async (error: unknown) => {
      await close();
      throw error;
    });
    return { database, close };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'test-db-'));
  const database = openDatabase({ database: { kind: 'sqlite', file: path.join(dir, 'library.db') } });
  const close = async () => {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  };
  await migrateToLatest(database).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  return { database, close };
}
