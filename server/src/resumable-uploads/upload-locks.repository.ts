import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Who writes a tus upload's bytes right now (migration 016_upload_locks). */
export interface UploadLocksTable {
  upload_id: string;
  /** The process holding it: an owner token (image-processing/claim-owner.ts). */
  holder: string;
  /** The end of the holder's lease: past it, anyone may take the lock. */
  expires_at: string;
  /** 1 once a request elsewhere waits for the lock: the holder should stop its request. */
  release_asked: number;
}

type Tables = DB & { upload_locks: UploadLocksTable };

/** Each call is one statement, atomic on its own: two processes racing for a lock cannot both win. */
export class UploadLocksRepository {
  private readonly db: Kysely<Tables>;

  constructor(db: Kysely<DB>) {
    this.db = db.withTables<{ upload_locks: UploadLocksTable }>();
  }

  /**
   * Takes the lock when no one holds it, its lease has run out, or its holder is `orphanOf` (a
   * process known to be dead). True when `holder` now has it.
   */
  async take(uploadId: string, holder: string, terms: { now: string; until: string; orphanOf?: string | undefined }): Promise<boolean> {
    const row = await this.db
      .insertInto('upload_locks')
      .values({ upload_id: uploadId, holder, expires_at: terms.until, release_asked: 0 })
      .onConflict((oc) =>
        oc
          .column('upload_id')
          .doUpdateSet((eb) => ({ holder: eb.ref('excluded.holder'), expires_at: eb.ref('excluded.expires_at'), release_asked: 0 }))
          .where((eb) =>
            eb.or([
              eb('upload_locks.expires_at', '<', terms.now),
              ...(terms.orphanOf === undefined ? [] : [eb('upload_locks.holder', '=', terms.orphanOf)]),
            ]),
          ),
      )
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === holder;
  }

  /** Asks whoever holds the lock to let go; returns who that is (undefined: no one). */
  async askRelease(uploadId: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('upload_locks')
      .set({ release_asked: 1 })
      .where('upload_id', '=', uploadId)
      .returning('holder')
      .executeTakeFirst();
    return row?.holder;
  }

  /** Extends `holder`'s lease. Undefined when it no longer holds the lock; else whether a release was asked. */
  async renew(uploadId: string, holder: string, until: string): Promise<{ releaseAsked: boolean } | undefined> {
    const row = await this.db
      .updateTable('upload_locks')
      .set({ expires_at: until })
      .where('upload_id', '=', uploadId)
      .where('holder', '=', holder)
      .returning('release_asked')
      .executeTakeFirst();
    return row ? { releaseAsked: Number(row.release_asked) === 1 } : undefined;
  }

  async release(uploadId: string, holder: string): Promise<void> {
    await this.db.deleteFrom('upload_locks').where('upload_id', '=', uploadId).where('holder', '=', holder).execute();
  }

  /** Locks whose lease ran out before `before` (their holder died mid-request): the sweep's. */
  async forgetExpired(before: string): Promise<void> {
    await this.db.deleteFrom('upload_locks').where('expires_at', '<', before).execute();
  }
}
