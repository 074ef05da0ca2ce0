import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryLocker } from '@tus/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { newOwnerToken } from '../src/image-processing/claim-owner.js';
import { UploadLocker, type UploadLockTiming } from '../src/resumable-uploads/upload-locker.js';
import { UploadLocksRepository, type UploadLocksTable } from '../src/resumable-uploads/upload-locks.repository.js';
import { deadOwnerToken } from './support/owner-tokens.js';
import { openMigratedDatabase, testDatabases } from './support/databases.js';
import { ManualClock } from './support/test-server.js';

/**
 * tus's lock on an upload across processes (decision 0010): two lockers with their own owner token
 * and their own in-memory lock stand for two app processes on one real database. The HTTP path
 * through two real processes is in cluster.test.ts.
 */
const TIMEOUT = new Error('lock timeout');
const FAST: UploadLockTiming = { leaseMs: 2_000, renewMs: 50, pollMs: 10, timeoutMs: 5_000 };

const cleanups: (() => Promise<void>)[] = [];

/** A lease as a process left it in the table, written straight into the database. */
async function leaveLease(database: Database, ...rows: Omit<UploadLocksTable, 'release_asked'>[]): Promise<void> {
  await database.db.withTables<{ upload_locks: UploadLocksTable }>()
    .insertInto('upload_locks')
    .values(rows.map((row) => ({ ...row, release_asked: 0 })))
    .execute();
}
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(testDatabases)('upload locks across processes on %s', (kind) => {
  async function setUp() {
    const { database, close } = await openMigratedDatabase(kind);
    cleanups.push(close);
    const clock = new ManualClock();
    const locks = new UploadLocksRepository(database.db);
    const process = (owner = newOwnerToken(), timing = FAST) =>
      new UploadLocker({ local: new MemoryLocker(), locks, owner, clock, timeoutError: TIMEOUT, timing });
    return { database, clock, locks, process };
  }

  it('a request in another process waits, asks the holder to stop, and gets the lock once it lets go', async () => {
    const { process } = await setUp();
    const [a, b] = [process(), process()];
    const held = a.newLock('upload-1');
    let askedAt = 0;
    await held.lock(new AbortController().signal, async () => {
      askedAt = Date.now();
      await sleep(100); // the request winds down, then tus unlocks
      await held.unlock();
    });
    const waiting = b.newLock('upload-1');
    const started = Date.now();
    await waiting.lock(new AbortController().signal, () => undefined);
    expect(askedAt, 'the holder in the other process was asked to stop').toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    await waiting.unlock();
  });

  it('never lets two processes hold one upload at once, however many requests race for it', async () => {
    const { process } = await setUp();
    const processes = [process(), process()];
    let holding = 0;
    let most = 0;
    let turns = 0;
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const lock = processes[i % 2]!.newLock('contested');
        // A request asked to stop simply finishes its turn (as a tus request does once cancelled).
        await lock.lock(new AbortController().signal, () => undefined);
        holding += 1;
        most = Math.max(most, holding);
        await sleep(15);
        holding -= 1;
        turns += 1;
        await lock.unlock();
      }),
    );
    expect(turns).toBe(12);
    expect(most).toBe(1);
  });

  it('takes over at once from a dead process of this machine, and from a live one elsewhere only when its lease ran out', async () => {
    const { database, clock, locks, process } = await setUp();
    const until = new Date(clock.now().getTime() + 60_000).toISOString();
    await leaveLease(
      database,
      { upload_id: 'left-by-the-dead', holder: deadOwnerToken(), expires_at: until },
      { upload_id: 'held-elsewhere', holder: 'another-host~boot|123|1|abcd', expires_at: until },
    );
    const b = process();
    const started = Date.now();
    const orphan = b.newLock('left-by-the-dead');
    await orphan.lock(new AbortController().signal, () => undefined);
    expect(Date.now() - started).toBeLessThan(1_000);
    await orphan.unlock();

    // Held by a process on another machine: the request waits (here: gives up at its signal)…
    const elsewhere = b.newLock('held-elsewhere');
    await expect(elsewhere.lock(AbortSignal.timeout(300), () => undefined)).rejects.toBe(TIMEOUT);
    // …and the lock is free again in this process after the failed attempt; past the lease, it is taken.
    clock.advance(61_000);
    await elsewhere.lock(new AbortController().signal, () => undefined);
    await elsewhere.unlock();
    expect(await locks.askRelease('held-elsewhere'), 'unlocking removes the row').toBeUndefined();
  });

  it("takes over at once a lease its own process left behind (a release the database refused)", async () => {
    const { database, clock, process } = await setUp();
    const owner = newOwnerToken();
    await leaveLease(database, { upload_id: 'not-released', holder: owner, expires_at: new Date(clock.now().getTime() + 60_000).toISOString() });
    const lock = process(owner).newLock('not-released');
    const started = Date.now();
    await lock.lock(new AbortController().signal, () => undefined);
    expect(Date.now() - started).toBeLessThan(1_000);
    await lock.unlock();
  });

  it('a holder that stalled past its lease and lost the lock is asked to stop', async () => {
    const { clock, process } = await setUp();
    const a = process();
    const held = a.newLock('stalled');
    let asked = false;
    await held.lock(new AbortController().signal, () => {
      asked = true;
    });
    // A's lease runs out (as if its process froze), and B takes the upload.
    clock.advance(FAST.leaseMs + 1);
    const b = process();
    const taken = b.newLock('stalled');
    await taken.lock(new AbortController().signal, () => undefined);
    await sleep(FAST.renewMs * 4);
    expect(asked).toBe(true);
    await taken.unlock();
    await held.unlock(); // removes only its own row: B's is gone already, nothing else
  });

  it('the sweep forgets the locks of processes that died holding them', async () => {
    const { clock, locks, process } = await setUp();
    const left = process(newOwnerToken(), { ...FAST, renewMs: 60_000 });
    const lock = left.newLock('forgotten');
    await lock.lock(new AbortController().signal, () => undefined);
    clock.advance(FAST.leaseMs + 1);
    await locks.forgetExpired(clock.now().toISOString());
    expect(await locks.askRelease('forgotten')).toBeUndefined();
    await lock.unlock();
  });
});
