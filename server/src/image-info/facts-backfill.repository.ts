import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { bumpLibraryVersion } from '../read-caches/library-version.js';
import { mediaFactsColumns } from '../images/media.repository.js';
import type { ExifFacts } from '../image-processing/exif.js';
import { takenKeyOf } from '../timeline/taken-key.js';

/** A picture whose facts were read before the timeline: what was kept of them then. */
export interface OldFacts {
  id: number;
  original_key: string;
  taken_at: string | null;
  camera: string | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
}

export interface FactsUpdate {
  mediaId: number;
  facts: ExifFacts;
}

export class FactsBackfillRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Ready pictures still at facts_version 0 after `afterId`, in id order (the `(facts_version, id)` index). */
  pending(limit: number, afterId: number): Promise<OldFacts[]> {
    return this.db
      .selectFrom('media')
      .select(['id', 'original_key', 'taken_at', 'camera', 'gps_latitude', 'gps_longitude'])
      .where('facts_version', '=', 0)
      .where('id', '>', afterId)
      .where('status', '=', 'ready')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Stores the facts read of each picture and gives its images their place in the timeline, in one
   * transaction. Only pictures still at version 0: another process may have done one meanwhile, and
   * then this changes nothing of it. Images that moved in the order count as removed and added again;
   * images that stayed but show a changed fact (date, camera, place) as touched (image-cards/).
   */
  async save(updates: readonly FactsUpdate[], before: ReadonlyMap<number, OldFacts>): Promise<number> {
    if (updates.length === 0) return 0;
    return this.db.transaction().execute(async (trx) => {
      let saved = 0;
      const moved: number[] = [];
      const touched: number[] = [];
      // In id order, locking each media row before its images (media.repository.ts: lock order).
      for (const { mediaId, facts } of [...updates].sort((a, b) => a.mediaId - b.mediaId)) {
        const columns = mediaFactsColumns(facts);
        const updated = await trx
          .updateTable('media')
          .set(columns)
          .where('id', '=', mediaId)
          .where('facts_version', '=', 0)
          .where('status', '=', 'ready')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) continue;
        saved += 1;
        const old = before.get(mediaId);
        const shownChanged =
          old === undefined ||
          old.taken_at !== columns.taken_at ||
          old.camera !== columns.camera ||
          old.gps_latitude !== columns.gps_latitude ||
          old.gps_longitude !== columns.gps_longitude;
        const uploads = await trx
          .selectFrom('images')
          .select(['id', 'file_modified_at', 'created_at', 'taken_key', 'date_source'])
          .where('media_id', '=', mediaId)
          .execute();
        for (const upload of uploads) {
          const key = takenKeyOf(facts, { fileModifiedAt: upload.file_modified_at, createdAt: upload.created_at });
          if (key.takenKey === Number(upload.taken_key) && key.dateSource === upload.date_source) {
            if (shownChanged) touched.push(upload.id);
            continue;
          }
          await trx.updateTable('images').set({ taken_key: key.takenKey, date_source: key.dateSource }).where('id', '=', upload.id).execute();
          moved.push(upload.id);
        }
      }
      if (moved.length > 0) {
        // Moved in the order: readers drop them and merge them back in at their new places.
        const version = await bumpLibraryVersion(trx, { removed: moved });
        await trx.updateTable('images').set({ visible_since: version }).where('id', 'in', moved).where('ready', '=', 1).execute();
      }
      if (touched.length > 0) await bumpLibraryVersion(trx, { touched });
      return saved;
    });
  }
}
