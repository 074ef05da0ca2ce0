import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
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
    const batch = async (letter: string) => {
      for (let i = 0; i < 100; i += 1) await sql`insert into notes (body) values (${letter.repeat(8000)})`.execute(db);
    };
    await batch('x');
    // SQLite's own checkpoint (the server's connection) would leave them in the log until 10,000 pages.
    await eventually(async () => expect(statSync(file).size).toBeGreaterThan(before + 700_000), 5000);
    // Once a checkpoint has copied all of it, the next write starts the log again from its start
    // (SQLite then changes the log header's first salt): the log does not keep growing. How long the
    // thread's last checkpoint takes depends on the machine's load, so a few batches may go by first.
    const firstSalt = logSalt(file);
    let written = 1;
    while (logSalt(file) === firstSalt && written < 6) {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await batch(String.fromCharCode(97 + written));
      written += 1;
    }
    expect(logSalt(file)).not.toBe(firstSalt);
    await eventually(async () => expect(statSync(file).size).toBeGreaterThan(before + written * 700_000), 5000);
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

/** The write-ahead log header's salt-1 (bytes 16–19), which SQLite changes each time it starts the log again from its start. */
function logSalt(file: string): number {
  const header = Buffer.alloc(32);
  const fd = openSync(`${file}-wal`, 'r');
  try {
    readSync(fd, header, 0, 32, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt32BE(16);
}
