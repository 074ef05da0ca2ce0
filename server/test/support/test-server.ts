import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import type { Clock } from '../../src/shared/clock.js';
import { createPostgresDatabase, type TestDatabaseKind } from './databases.js';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  dataDir: string;
  database: TestDatabaseKind;
  /** Runs SQL straight on the server's database, for tests that must set up a state no call makes. */
  sql(statement: string, params?: unknown[]): Promise<void>;
  /** Reads rows straight from the server's database (`?` placeholders on both databases). */
  rows<T = Record<string, unknown>>(statement: string, params?: unknown[]): Promise<T[]>;
  /** Stops the server and starts a new process-like instance on the same database and DATA_DIR (new url). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A clock the tests move by hand (for reset-link expiry); starts at the real now. */
export class ManualClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/**
 * The real server, listening on a random local port, on a fresh database of the given kind and
 * a fresh DATA_DIR. Tests talk to it over real HTTP.
 */
export async function startTestServer(
  database: TestDatabaseKind,
  options: { env?: Record<string, string>; clock?: Clock } = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'photo-test-'));
  const pgDb = database === 'postgres' ? await createPostgresDatabase() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    // TEST_LOG_LEVEL=error (say) shows a failing test's server errors.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    PUBLIC_URL: 'http://photos.test',
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...options.env,
  });
  const start = async () => {
    const app = await buildApp({ config, ...(options.clock ? { clock: options.clock } : {}) });
    return { app, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
  };
  const first = await start();
  const server: TestServer = {
    url: first.url,
    app: first.app,
    dataDir,
    database,
    async sql(statement, params = []) {
      await server.rows(statement, params);
    },
    async rows<T>(statement: string, params: unknown[] = []): Promise<T[]> {
      if (pgDb) {
        const client = new pg.Client({ connectionString: pgDb.url });
        await client.connect();
        try {
          const result = await client.query(statement.replace(/\?/g, (_, i: number) => `$${statement.slice(0, i).split('?').length}`), params);
          return result.rows as T[];
        } finally {
          await client.end();
        }
      } else {
        const db = new SQLite(path.join(dataDir, 'photos.sqlite'));
        try {
          const prepared = db.prepare(statement);
          if (prepared.reader) return prepared.all(...params) as T[];
          prepared.run(...params);
          return [];
        } finally {
          db.close();
        }
      }
    },
    async restart() {
      await server.app.close();
      const next = await start();
      server.app = next.app;
      server.url = next.url;
    },
    async close() {
      await server.app.close();
      await pgDb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}
