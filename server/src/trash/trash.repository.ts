import { type Kysely, sql } from 'kysely';
import { onlyInTrashOf } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.js';
import { lockMedia } from '../images/media.repository.js';
import { restoreTrashed } from './restore.js';

export interface TrashEntry {
  id: number;
  trashedAt: string;
  trashedBy: string | null;
}

/**
 * Reads of the Trash and restores from it. Every read for a person goes through `onlyInTrashOf`;
 * moving images in (`ImagesRepository.trashImages`) and deleting them for good
 * (`ImagesRepository.deleteImages`) stay on the images' one write path.
 */
export class TrashRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** One page of the person's Trash, newest deleted first, and how many it holds. */
  async page(user: AuthUser, offset: number, limit: number): Promise<{ entries: TrashEntry[]; total: number }> {
    const rows = await onlyInTrashOf(this.db.selectFrom('images'), user)
      .leftJoin('users as trasher', 'trasher.id', 'images.trashed_by')
      .select(['images.id', 'images.trashed_at', 'trasher.username'])
      .orderBy('images.trashed_at', 'desc')
      .orderBy('images.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    const count = await onlyInTrashOf(this.db.selectFrom('images'), user)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    return {
      entries: rows.map((row) => ({ id: row.id, trashedAt: row.trashed_at ?? '', trashedBy: row.username ?? null })),
      total: Number(count.n),
    };
  }

  /** The images among `ids` in this person's Trash, with their uploaders (for deciding a restore or delete). */
  async inTrashAmong(user: AuthUser, ids: readonly number[]): Promise<{ id: number; uploaded_by: number }[]> {
    if (ids.length === 0) return [];
    return onlyInTrashOf(this.db.selectFrom('images').select(['images.id', 'images.uploaded_by']).where('images.id', 'in', ids), user).execute();
  }

  /** Up to `limit` ids of this person's Trash (for emptying it in batches). */
  async idsInTrashOf(user: AuthUser, limit: number): Promise<number[]> {
    const rows = await onlyInTrashOf(this.db.selectFrom('images').select('images.id'), user).orderBy('images.id').limit(limit).execute();
    return rows.map((row) => row.id);
  }

  /** Up to `limit` ids trashed at or before `cutoff`, oldest first (for the purge). */
  async trashedBefore(cutoff: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('images')
      .select('id')
      .where('trashed_at', 'is not', null)
      .where('trashed_at', '<=', cutoff)
      .orderBy('trashed_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Takes the images out of the Trash (`restoreTrashed`), with their media rows locked first. */
  async restore(ids: readonly number[]): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const mediaIds = [
        ...new Set((await trx.selectFrom('images').select('media_id').where('id', 'in', ids).execute()).map((r) => r.media_id)),
      ];
      await lockMedia(trx, mediaIds);
      return restoreTrashed(trx, ids);
    });
  }
}
