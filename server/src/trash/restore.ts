import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import { bumpLibraryVersion } from '../read-caches/library-version.js';
import { addTagUsageOfImages } from '../tags/tag-changes.repository.js';

/**
 * Takes images out of the Trash, inside the caller's transaction, which must hold their media rows
 * (`lockMedia`, or the share lock `linkImage` takes): then `markReady` cannot commit in between, and
 * `ready` is read from the media as it is. They come back with everything they had — tags (back in
 * the usage counts), likes, in-photo marks, share memberships — as additions: stamped with the new
 * version (`visible_since`), readers merge them back in at their places in the order.
 * Returns the ids that were in the Trash.
 */
export async function restoreTrashed(trx: Transaction<DB>, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const restored = (
    await trx
      .updateTable('images')
      .set({
        trashed_at: null,
        trashed_by: null,
        ready: sql<number>`case when exists (select 1 from media where media.id = images.media_id and media.status = 'ready') then 1 else 0 end`,
      })
      .where('id', 'in', ids)
      .where('trashed_at', 'is not', null)
      .returning('id')
      .execute()
  ).map((row) => row.id);
  if (restored.length === 0) return [];
  await addTagUsageOfImages(trx, restored, 1);
  const version = await bumpLibraryVersion(trx, 'additions');
  await trx.updateTable('images').set({ visible_since: version }).where('id', 'in', restored).where('ready', '=', 1).execute();
  return restored;
}
