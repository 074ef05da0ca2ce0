import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { createRequire } from 'node:module';
import type { Config } from '../config/config.js';
import type { DB } from './schema.js';
import { LocalChanges } from './local-changes.js';
import { namingPool } from './prepared-statements.js';
import { SAFETY_NET_PAGES, WalCheckpoints } from './wal-checkpoints.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  /** SQLite only: what this connection and others changed since a moment (local-changes.ts). */
  localChanges?: LocalChanges;
  close(): Promise<void>;
}


export function openDatabase(config: Pick<Config, 'database'>): Database {
  if (config.database.kind === 'postgres') {
    const db = openPostgres(config.database.url);
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const { db, checkpoints, localChanges } = openSqlite(config.database.file);
  return {
    db,
    dialect: 'sqlite',
    localChanges,
    close: async () => {
      await checkpoints?.close();
      await db.destroy();
    },
  };
}

function openSqlite(file: string): { db: Kysely<DB>; checkpoints: WalCheckpoints | undefined; localChanges: LocalChanges } {
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets readers work while a writer commits; NORMAL sync is durable across app crashes under WAL.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  cachePreparedStatements(sqlite);
  let checkpoints: WalCheckpoints | undefined;
  if (file !== ':memory:') {
    // Checkpoints run in a thread of their own (wal-checkpoints.ts); this connection only past the safety net.
    sqlite.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
    checkpoints = new WalCheckpoints(file, (message) =>
      console.error(JSON.stringify({ level: 50, msg: 'a WAL checkpoint failed; the server’s own connection checkpoints past the safety net', err: message })),
    );
    checkpoints.start();
  }
  return { db: new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) }), checkpoints, localChanges: new LocalChanges(sqlite) };
}

/**
 * pg is loaded only when PostgreSQL is configured: a SQLite server does not hold it (about 14 MB
 * resident; issue 14, idle memory). It is CommonJS, so `require` loads it synchronously.
 */
export function loadPg(): typeof import('pg') {
  const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
  // COUNT(*) and BIGINT come back from pg as strings; every count we read fits a JS number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
  return pg;
}

function openPostgres(url: string): Kysely<DB> {
  const pg = loadPg();
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection that drops (PostgreSQL restarted, network cut) is reported here; unhandled,
  // it would end the process. The pool discards that client and opens a new one when next needed.
  pool.on('error', (error) => console.error(JSON.stringify({ level: 50, msg: 'an idle PostgreSQL connection failed', err: error.message })));
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: namingPool(pool) }) });
}

/**
 * Kysely prepares every query afresh; compiling SQL is a good part of a cheap query's cost. The
 * app runs a small fixed set of statements, so each is compiled once and reused (bounded, in case
 * some statement text varies, such as the length of an `in (...)` list).
 */
function cachePreparedStatements(sqlite: SQLite.Database, max = 500): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = prepare(source);
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
}
