import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export class PasswordResetsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async create(userId: number, tokenHash: string, expiresAt: string, now: string): Promise<void> {
    await this.db
      .insertInto('password_resets')
      .values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt, used_at: null, created_at: now })
      .execute();
  }

  /**
   * Marks an unused, unexpired token as used and returns its user — one conditional UPDATE,
   * so two requests racing with the same link cannot both succeed.
   */
  async consume(tokenHash: string, now: string, db: Kysely<DB> = this.db): Promise<number | undefined> {
    const row = await db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  /** After a reset, every other outstanding link for that person stops working too. */
  async invalidateAllForUser(userId: number, now: string, db: Kysely<DB> = this.db): Promise<void> {
    await db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
  }

  async deleteExpiredBefore(cutoff: string): Promise<void> {
    await this.db.deleteFrom('password_resets').where('expires_at', '<', cutoff).execute();
  }
}
