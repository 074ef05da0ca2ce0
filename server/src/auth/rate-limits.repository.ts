import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Fixed-window counters kept in the database rather than in process memory, so limits hold
 * across several app processes behind a load balancer (DECISIONS §1, scale-out).
 */
export class RateLimitsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Counts one more event for `key` and returns the count in the current window. */
  async hit(key: string, windowSeconds: number, nowSeconds: number): Promise<{ count: number; windowStart: number }> {
    const expired = sql<boolean>`rate_limits.window_start <= ${nowSeconds - windowSeconds}`;
    const row = await this.db
      .insertInto('rate_limits')
      .values({ key, window_start: nowSeconds, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when ${expired} then 1 else rate_limits.count + 1 end`,
          window_start: sql<number>`case when ${expired} then ${nowSeconds} else rate_limits.window_start end`,
        }),
      )
      .returning(['count', 'window_start'])
      .executeTakeFirstOrThrow();
    return { count: row.count, windowStart: row.window_start };
  }

  /** The count in the current window without adding to it. */
  async peek(key: string, windowSeconds: number, nowSeconds: number): Promise<{ count: number; windowStart: number }> {
    const row = await this.db
      .selectFrom('rate_limits')
      .select(['count', 'window_start'])
      .where('key', '=', key)
      .where('window_start', '>', nowSeconds - windowSeconds)
      .executeTakeFirst();
    return row ? { count: row.count, windowStart: row.window_start } : { count: 0, windowStart: nowSeconds };
  }

  /** Takes back one event counted in the current window (an attempt that turned out fine). */
  async unhit(key: string): Promise<void> {
    await this.db.updateTable('rate_limits').set((eb) => ({ count: eb('count', '-', 1) })).where('key', '=', key).where('count', '>', 0).execute();
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('key', '=', key).execute();
  }

  /** Forgets windows that began before `cutoffSeconds`; keys starting with `keep` only before `keepCutoffSeconds`. */
  async deleteOlderThan(cutoffSeconds: number, keep?: { prefix: string; cutoffSeconds: number }): Promise<void> {
    let query = this.db.deleteFrom('rate_limits').where('window_start', '<', cutoffSeconds);
    if (keep) {
      query = query.where((eb) =>
        eb.or([eb('key', 'not like', `${keep.prefix}%`), eb('window_start', '<', keep.cutoffSeconds)]),
      );
    }
    await query.execute();
  }
}
