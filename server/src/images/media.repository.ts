import type { Kysely, Transaction } from 'kysely';
import type { DB, MediaRow } from '../db/schema.js';
import { inListSlices } from '../db/in-lists.js';
import { hasRowLocks } from '../db/row-locks.js';
import { restoreTrashed } from '../trash/restore.js';
import { takenKeyOf } from '../timeline/taken-key.js';
import { bumpLibraryVersion } from '../read-caches/library-version.js';
import type { ExifFacts } from '../image-processing/exif.js';

export interface NewMedia {
  contentHash: string;
  mime: string;
  bytes: number;
  originalKey: string;
  width: number;
  height: number;
  now: string;
}

export interface ProcessedMedia {
  placeholder: string;
  exif: ExifFacts;
  displayKey: string;
  thumbnailKey: string;
}

/**
 * Stored pictures (one per distinct content) and their link to uploads.
 *
 * Why files never go missing nor stay orphaned when deletes, re-uploads of the same bytes and
 * processing race (storage keys are content addressed, so an old and a new row of the same
 * picture share their files):
 *
 * 1. The media row is the lock on its content's files (`originals/<hash>`, `derived/<hash>/…`). At
 *    most one row per content hash exists (unique index), and only the process holding that row's
 *    claim (image-processing/claims.ts) writes or deletes its files.
 * 2. A delete never removes a media row with its images. In the images' transaction the media no
 *    image uses any more become 'deleting'; their files are removed after the commit, and the row
 *    only after its files. While the row is 'deleting' the hash stays taken: a re-upload cannot
 *    create a new row (its insert conflicts) nor link to this one (`linkImage` refuses 'deleting'),
 *    so it waits until the row is gone — when the files are gone too — and stores its own copy.
 *    A delete during processing leaves the row to the process holding it, which removes what it
 *    wrote once it finds the row 'deleting' instead of marking it ready.
 * 3. "No image uses it" must be decided atomically with linking a new image to it:
 *    - SQLite: a write transaction holds the whole database, and in this process the one
 *      connection (Kysely queues every other query behind a transaction), so the check and the
 *      change see one state. Several processes on one SQLite file are serialized by its write lock;
 *      a transaction whose snapshot went stale meanwhile fails (SQLITE_BUSY) instead of deciding on it.
 *    - PostgreSQL (READ COMMITTED, several processes): `linkImage` takes a share lock on the media
 *      row before inserting its image; a delete takes an update lock on its media rows (`lockMedia`,
 *      in id order) before touching images. A link in flight makes the delete wait, and the delete's
 *      unused check — a statement of its own, so a fresh snapshot — then sees the new image; a link
 *      arriving later waits for the delete and then reads 'deleting'. A single `update … where not
 *      exists (images)` would not do: a row re-checked after a lock wait keeps the statement's old
 *      snapshot for the subquery.
 *    - Lock order: every transaction that changes a media row and its images locks the media row
 *      first (linkImage, markReady, discard, deleteImages), so they queue per picture, never deadlock.
 * 4. A process that wrote files for a row that vanished under it (it was presumed dead and its work
 *    taken over, then deleted) takes the hash with a 'deleting' row of its own before removing them,
 *    or leaves them to the live row that holds the hash (image-processing/media-processor.ts).
 */
export class MediaRepository {
  constructor(private readonly db: Kysely<DB>) {}

  findByHash(contentHash: string): Promise<MediaRow | undefined> {
    return this.db.selectFrom('media').selectAll().where('content_hash', '=', contentHash).executeTakeFirst();
  }

  findById(id: number): Promise<MediaRow | undefined> {
    return this.db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Creates a pending media row, claimed by `owner`. When a row for the same content exists
   * (another upload of it, or one being deleted), returns that row and `created: false`.
   */
  async createPending(media: NewMedia, owner: string): Promise<{ row: MediaRow; created: boolean }> {
    const inserted = await this.db
      .insertInto('media')
      .values({
        content_hash: media.contentHash,
        mime: media.mime,
        byte_size: media.bytes,
        status: 'pending',
        width: media.width,
        height: media.height,
        original_key: media.originalKey,
        created_at: media.now,
        claimed_at: media.now,
        claimed_by: owner,
      })
      .onConflict((oc) => oc.column('content_hash').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { row: inserted, created: true };
    const existing = await this.findByHash(media.contentHash);
    // Gone again between the two statements (its deletion finished): the caller looks again.
    if (!existing) return this.createPending(media, owner);
    return { row: existing, created: false };
  }

  /**
   * Records one person's upload of a stored picture. Returns the existing image when this person
   * already uploaded the same content (a duplicate), or undefined if the media row is gone or being
   * deleted. The row is locked (shared) first: a delete that would remove the media waits for this
   * link to commit and then sees the new image, or this link waits for the delete and sees 'deleting'.
   */
  async linkImage(link: {
    media: MediaRow;
    userId: number;
    fileName: string;
    imageName: string;
    now: string;
    /** The file's last-modified time as the client reported it (ISO), if it did. */
    fileModifiedAt?: string | null;
  }): Promise<
    { imageId: number; created: boolean } | undefined
  > {
    return this.db.transaction().execute(async (trx) => {
      const media = await trx
        .selectFrom('media')
        .select(['id', 'status', 'taken_at', 'taken_offset', 'file_date'])
        .where('id', '=', link.media.id)
        .$if(hasRowLocks(trx), (qb) => qb.forShare())
        .executeTakeFirst();
      if (!media || media.status === 'deleting') return undefined;
      const fileModifiedAt = link.fileModifiedAt ?? null;
      // Final for a ready picture; a pending one's is set again once its dates are read (markReady).
      const key = takenKeyOf(
        { takenAt: media.taken_at, takenOffset: media.taken_offset, fileDate: media.file_date },
        { fileModifiedAt, createdAt: link.now },
      );
      const inserted = await trx
        .insertInto('images')
        .values({
          media_id: media.id,
          uploaded_by: link.userId,
          file_name: link.fileName,
          image_name: link.imageName,
          ready: media.status === 'ready' ? 1 : 0,
          created_at: link.now,
          file_modified_at: fileModifiedAt,
          taken_key: key.takenKey,
          date_source: key.dateSource,
        })
        .onConflict((oc) => oc.columns(['uploaded_by', 'media_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) {
        if (media.status === 'ready') {
          const version = await bumpLibraryVersion(trx, 'additions');
          await trx.updateTable('images').set({ visible_since: version }).where('id', '=', inserted.id).execute();
        }
        return { imageId: inserted.id, created: true };
      }
      const existing = await trx
        .selectFrom('images')
        .select(['id', 'trashed_at'])
        .where('uploaded_by', '=', link.userId)
        .where('media_id', '=', media.id)
        .executeTakeFirstOrThrow();
      // Uploading again what one put in the Trash brings it back, with its tags and likes (trash/).
      if (existing.trashed_at !== null) await restoreTrashed(trx, [existing.id]);
      return { imageId: existing.id, created: false };
    });
  }

  /**
   * The derived files exist: the media and every upload of it become visible. Only while `owner`
   * still holds the pending row: false when it was deleted meanwhile, or taken over.
   */
  async markReady(mediaId: number, owner: string, processed: ProcessedMedia): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('media')
        .set({
          status: 'ready',
          placeholder: processed.placeholder,
          ...mediaFactsColumns(processed.exif),
          display_key: processed.displayKey,
          thumbnail_key: processed.thumbnailKey,
          claimed_at: null,
          claimed_by: null,
        })
        .where('id', '=', mediaId)
        .where('status', '=', 'pending')
        .where('claimed_by', '=', owner)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      const version = await bumpLibraryVersion(trx, 'additions');
      // Each upload takes its place in the timeline now that the picture's dates are known; images
      // in the Trash stay hidden (ready 0) until restored (trash/restore.ts).
      const uploads = await trx
        .selectFrom('images')
        .select(['id', 'file_modified_at', 'created_at', 'trashed_at'])
        .where('media_id', '=', mediaId)
        .execute();
      for (const upload of uploads) {
        const key = takenKeyOf(processed.exif, { fileModifiedAt: upload.file_modified_at, createdAt: upload.created_at });
        await trx
          .updateTable('images')
          .set({
            taken_key: key.takenKey,
            date_source: key.dateSource,
            ...(upload.trashed_at === null ? { ready: 1, visible_since: version } : {}),
          })
          .where('id', '=', upload.id)
          .execute();
      }
      return true;
    });
  }

  /**
   * Gives up a picture `owner` is processing (it cannot be decoded, its original is lost, or its
   * upload failed): the row becomes 'deleting', still held by `owner`, and every upload of it goes.
   * The caller then removes the files and the row (`forgetDeleted`). False if `owner` lost the row.
   */
  async discard(mediaId: number, owner: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('media')
        .set({ status: 'deleting' })
        .where('id', '=', mediaId)
        .where('status', 'in', ['pending', 'deleting'])
        .where('claimed_by', '=', owner)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return false;
      // Never visible (not ready), so no library version changes.
      await trx.deleteFrom('images').where('media_id', '=', mediaId).execute();
      return true;
    });
  }

  /** Removes 'deleting' rows held by `owner`, once their files are gone. */
  async forgetDeleted(mediaIds: readonly number[], owner: string): Promise<void> {
    for (const ids of inListSlices(mediaIds)) {
      await this.db
        .deleteFrom('media')
        .where('id', 'in', ids)
        .where('status', '=', 'deleting')
        .where('claimed_by', '=', owner)
        .execute();
    }
  }
}

/**
 * Locks media rows for changing them and their images (PostgreSQL; in id order, so two
 * transactions locking overlapping sets queue instead of deadlocking). Every transaction that
 * changes a media row and its images takes this lock before touching the images.
 */
export async function lockMedia(trx: Transaction<DB>, mediaIds: readonly number[]): Promise<void> {
  if (mediaIds.length === 0 || !hasRowLocks(trx)) return;
  await trx.selectFrom('media').select('id').where('id', 'in', mediaIds).orderBy('id').forUpdate().execute();
}

/**
 * Marks the media among `mediaIds` that no image uses any more as 'deleting' and returns them. Their
 * claim is left as it was: a process still processing one removes its files when it finishes; for
 * the others (ready, or pending with nobody working) the caller claims them and removes the files.
 * Call after `lockMedia`: then no new image of them can be committed meanwhile (PostgreSQL), and
 * the unused check, a statement of its own, sees every image committed before the lock.
 */
export async function markUnusedMediaDeleting(trx: Transaction<DB>, mediaIds: readonly number[]): Promise<MediaRow[]> {
  if (mediaIds.length === 0) return [];
  const unused = await trx
    .selectFrom('media')
    .selectAll()
    .where('id', 'in', mediaIds)
    .where('status', 'in', ['pending', 'ready'])
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('images').select('images.id').whereRef('images.media_id', '=', 'media.id'))),
    )
    .execute();
  if (unused.length === 0) return [];
  await trx.updateTable('media').set({ status: 'deleting' }).where('id', 'in', unused.map((m) => m.id)).execute();
  return unused.map((media) => ({ ...media, status: 'deleting' as const }));
}

/** The media columns of what was read from a picture's metadata (`facts_version` 1: all of it). */
export function mediaFactsColumns(exif: ExifFacts) {
  return {
    taken_at: exif.takenAt,
    taken_offset: exif.takenOffset,
    file_date: exif.fileDate,
    camera: exif.camera,
    lens: exif.lens,
    f_number: exif.fNumber,
    exposure_time: exif.exposureTime,
    iso: exif.iso,
    focal_length: exif.focalLength,
    gps_latitude: exif.gps?.latitude ?? null,
    gps_longitude: exif.gps?.longitude ?? null,
    facts_version: 1,
  };
}
