import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { THREAD_IDLE_MS, WalCheckpoints } from '../src/db/wal-checkpoints.js';
import { eventually } from './support/eventually.js';

/**
 * SQLite checkpoints (copying the write-ahead log into the database file, and syncing both) run in
 * a thread of their own, not in whichever request commits past 1,000 pages (decision 0031).
 */
describe('WAL checkpoints (SQLite)', () => {
  let dir: string;
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const open = () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wal-'));
    const file = path.join(dir, 'photos.sqlite');
    database = openDatabase({ database: { kind: 'sqlite', file } });
    return { db: database.db, file };
  };

  it('copies what the server writes into the database file from another thread, well before the log reaches 1,000 pages', async () => {
    const { db, file } = open();
    await sql`create table notes (id integer primary key, body text)`.execute(db);
    const before = statSync(file).size;
    // Nothing starts while nothing is written after the first look; then ~200 pages (800 KB) arrive.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    for (let i = 0; i < 100; i += 1) await sql`insert into notes (body) values (${'x'.repeat(8000)})`.execute(db);
    // SQLite's own checkpoint (the server's connection) would leave them in the log until 1,000 pages.
    await eventually(async () => expect(statSync(file).size).toBeGreaterThan(before + 700_000), 5000);
    // The log is then written again from its start: it does not keep growing.
    const log = statSync(`${file}-wal`).size;
    for (let i = 0; i < 100; i += 1) await sql`insert into notes (body) values (${'y'.repeat(8000)})`.execute(db);
    await eventually(async () => expect(statSync(file).size).toBeGreaterThan(before + 1_400_000), 5000);
    for (let i = 0; i < 100; i += 1) await sql`insert into notes (body) values (${'z'.repeat(8000)})`.execute(db);
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(log * 1.5);
  }, 30_000);

  it('starts its thread with the first write it sees and ends it once writes stop', async () => {
    const { db, file } = open();
    let now = 0;
    const checkpoints = new WalCheckpoints(file, (message) => {
      throw new Error(message);
    }, () => now);
    try {
      checkpoints.start();
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(checkpoints.running).toBe(false);
      await sql`create table notes (id integer primary key)`.execute(db);
      await eventually(async () => expect(checkpoints.running).toBe(true), 3000);
      now += THREAD_IDLE_MS + 1;
      await eventually(async () => expect(checkpoints.running).toBe(false), 3000);
    } finally {
      await checkpoints.close();
    }
  }, 30_000);
});
