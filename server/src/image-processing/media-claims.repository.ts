import type { Kysely } from 'kysely';
import type { DB, MediaRow } from '../db/schema.js';
import { inListSlices } from '../db/in-lists.js';

/** Who holds a claim and until when it counts (see processing/claims.ts). */
export interface ClaimTerms {
  owner: string;
  now: string;
  /** Heartbeats older than this are stale: their work is taken over. */
  staleBefore: string;
}

/**
 * The claims on media rows that are being processed or removed (processing/claims.ts): who works on
 * a pending or deleting row, their heartbeat, and taking over what nobody works on any more. Kept
 * apart from MediaRepository, which owns what a row and its images are.
 */
export class MediaClaimsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Takes the content hash of `media` for deleting its files when no row holds it: a process that
   * wrote files for a row that vanished meanwhile must own the hash before it removes them.
   */
  async insertDeleting(media: MediaRow, terms: ClaimTerms): Promise<MediaRow | undefined> {
    return this.db
      .insertInto('media')
      .values({
        content_hash: media.content_hash,
        mime: media.mime,
        byte_size: media.byte_size,
        status: 'deleting',
        width: media.width,
        height: media.height,
        original_key: media.original_key,
        created_at: terms.now,
        claimed_at: terms.now,
        claimed_by: terms.owner,
      })
      .onConflict((oc) => oc.column('content_hash').doNothing())
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Takes over the work on a pending or deleting row: only when nobody holds it, its heartbeat is
   * stale, or it is held by `deadOwner` (a process known to be gone). False if someone else won.
   */
  async claim(media: Pick<MediaRow, 'id' | 'status'>, terms: ClaimTerms, deadOwner?: string): Promise<boolean> {
    const result = await this.db
      .updateTable('media')
      .set({ claimed_by: terms.owner, claimed_at: terms.now })
      .where('id', '=', media.id)
      .where('status', '=', media.status)
      .where((eb) =>
        eb.or([
          eb('claimed_at', 'is', null),
          eb('claimed_at', '<', terms.staleBefore),
          ...(deadOwner ? [eb('claimed_by', '=', deadOwner)] : []),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** `claim` for many 'deleting' rows at once; returns the ids taken. */
  async claimDeleting(mediaIds: readonly number[], terms: ClaimTerms, deadOwners: readonly string[]): Promise<number[]> {
    const taken: number[] = [];
    for (const ids of inListSlices(mediaIds)) {
      const rows = await this.db
        .updateTable('media')
        .set({ claimed_by: terms.owner, claimed_at: terms.now })
        .where('id', 'in', ids)
        .where('status', '=', 'deleting')
        .where((eb) =>
          eb.or([
            eb('claimed_at', 'is', null),
            eb('claimed_at', '<', terms.staleBefore),
            ...(deadOwners.length > 0 ? [eb('claimed_by', 'in', deadOwners)] : []),
          ]),
        )
        .returning('id')
        .execute();
      taken.push(...rows.map((row) => row.id));
    }
    return taken;
  }

  /** The heartbeat: `owner` is still working on these rows. */
  async refreshClaims(owner: string, mediaIds: readonly number[], now: string): Promise<void> {
    for (const ids of inListSlices(mediaIds)) {
      await this.db
        .updateTable('media')
        .set({ claimed_at: now })
        .where('id', 'in', ids)
        .where('claimed_by', '=', owner)
        .execute();
    }
  }

  /** At shutdown: whatever `owner` still holds may be taken over at once. */
  async releaseClaims(owner: string): Promise<void> {
    await this.db
      .updateTable('media')
      .set({ claimed_at: null })
      .where('status', 'in', ['pending', 'deleting'])
      .where('claimed_by', '=', owner)
      .execute();
  }

  /** Who holds the pending and deleting rows (to find owners that are known to be dead). */
  async claimOwners(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('media')
      .select('claimed_by')
      .distinct()
      .where('status', 'in', ['pending', 'deleting'])
      .where('claimed_by', 'is not', null)
      .execute();
    return rows.flatMap((row) => (row.claimed_by ? [row.claimed_by] : []));
  }

  /** Pending and deleting rows nobody is working on: unclaimed, stale, or held by a dead owner. */
  stalled(staleBefore: string, deadOwners: readonly string[], limit: number): Promise<MediaRow[]> {
    return this.db
      .selectFrom('media')
      .selectAll()
      .where('status', 'in', ['pending', 'deleting'])
      .where((eb) =>
        eb.or([
          eb('claimed_at', 'is', null),
          eb('claimed_at', '<', staleBefore),
          ...(deadOwners.length > 0 ? [eb('claimed_by', 'in', deadOwners)] : []),
        ]),
      )
      .orderBy('id')
      .limit(limit)
      .execute();
  }
}
