import type { Kysely } from 'kysely';
import type { DB, MediaRow } from '../db/schema.js';
import { deleteUnusedMedia, mediaKeys } from './images.repository.js';
import { bumpLibraryVersion } from './library-version.js';

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
  takenAt: string | null;
  camera: string | null;
  gps: { latitude: number; longitude: number } | null;
  displayKey: string;
  thumbnailKey: string;
}

/** Stored pictures (one per distinct content) and their link to uploads. */
export class MediaRepository {
  constructor(private readonly db: Kysely<DB>) {}

  findByHash(contentHash: string): Promise<MediaRow | undefined> {
    return this.db.selectFrom('media').selectAll().where('content_hash', '=', contentHash).executeTakeFirst();
  }

  /**
   * Creates a pending media row, claimed for processing by the caller. When the same content was
   * stored meanwhile (two uploads racing), returns the existing row and `created: false`.
   */
  async createPending(media: NewMedia): Promise<{ row: MediaRow; created: boolean }> {
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
      })
      .onConflict((oc) => oc.column('content_hash').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { row: inserted, created: true };
    const existing = await this.findByHash(media.contentHash);
    if (!existing) throw new Error(`media ${media.contentHash} vanished while being linked`);
    return { row: existing, created: false };
  }

  /**
   * Records one person's upload of a stored picture. Returns the existing image when this person
   * already uploaded the same content (a duplicate), or undefined if the media row is gone.
   */
  async linkImage(link: { media: MediaRow; userId: number; fileName: string; imageName: string; now: string }): Promise<
    { imageId: number; created: boolean } | undefined
  > {
    return this.db.transaction().execute(async (trx) => {
      const media = await trx.selectFrom('media').select(['id', 'status']).where('id', '=', link.media.id).executeTakeFirst();
      if (!media) return undefined;
      const inserted = await trx
        .insertInto('images')
        .values({
          media_id: media.id,
          uploaded_by: link.userId,
          file_name: link.fileName,
          image_name: link.imageName,
          ready: media.status === 'ready' ? 1 : 0,
          created_at: link.now,
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
        .select('id')
        .where('uploaded_by', '=', link.userId)
        .where('media_id', '=', media.id)
        .executeTakeFirstOrThrow();
      return { imageId: existing.id, created: false };
    });
  }

  /** The derived files exist: the media and every upload of it become visible. */
  async markReady(mediaId: number, processed: ProcessedMedia): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('media')
        .set({
          status: 'ready',
          placeholder: processed.placeholder,
          taken_at: processed.takenAt,
          camera: processed.camera,
          gps_latitude: processed.gps?.latitude ?? null,
          gps_longitude: processed.gps?.longitude ?? null,
          display_key: processed.displayKey,
          thumbnail_key: processed.thumbnailKey,
          claimed_at: null,
        })
        .where('id', '=', mediaId)
        .execute();
      const version = await bumpLibraryVersion(trx, 'additions');
      await trx.updateTable('images').set({ ready: 1, visible_since: version }).where('media_id', '=', mediaId).execute();
    });
  }

  /**
   * Forgets a picture that could not be processed, with every upload of it. Returns the storage
   * keys to remove (the original, and derived files if any were written).
   */
  async discard(media: MediaRow, derivedKeys: readonly string[]): Promise<string[]> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('images').where('media_id', '=', media.id).execute();
      await deleteUnusedMedia(trx, [media.id]);
    });
    return [...new Set([...mediaKeys(media), ...derivedKeys])];
  }

  /** Pending media whose processing was claimed before `before` (a process died mid-way). */
  stalled(before: string, limit: number): Promise<MediaRow[]> {
    return this.db
      .selectFrom('media')
      .selectAll()
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', before)]))
      .limit(limit)
      .execute();
  }

  /** Takes over a stalled media for processing; false if another process got it first. */
  async claim(mediaId: number, before: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('media')
      .set({ claimed_at: now })
      .where('id', '=', mediaId)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', before)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
