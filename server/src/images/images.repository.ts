import { type Kysely, sql } from 'kysely';
import { onlyInTrashOf, onlyVisible, visibleParts } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB, ImageRow, MediaRow } from '../db/schema.js';
import { addTagUsageOfImages, forgetTagsOfImages } from '../tags/tag-changes.repository.js';
import { bumpLibraryVersion } from './library-version.js';
import { lockMedia, markUnusedMediaDeleting } from './media.repository.js';

/** An image with its stored picture, as read for presenting. */
export type ImageWithMedia = ImageRow & {
  content_hash: string;
  media_width: number | null;
  media_height: number | null;
  placeholder: string | null;
  taken_at: string | null;
  camera: string | null;
  gps_latitude: number | null;
  gps_longitude: number | null;
  display_key: string | null;
  thumbnail_key: string | null;
};

/** Reads and deletes people's images. Every read for a person is filtered by `onlyVisible`. */
export class ImagesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Ids of every visible, ready image, newest first (read off the covering index). */
  async allVisibleIds(user: AuthUser): Promise<number[]> {
    const rows = await onlyVisible(this.db.selectFrom('images').select('images.id').where('images.ready', '=', 1), user)
      .orderBy('images.id', 'desc')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Ids of visible images that became visible after library version `version`, newest first. */
  async visibleAfter(user: AuthUser, version: number): Promise<number[]> {
    const rows = await onlyVisible(
      this.db
        .selectFrom('images')
        .select('images.id')
        .where('images.ready', '=', 1)
        .where('images.visible_since', '>', version),
      user,
    )
      .orderBy('images.id', 'desc')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Ids of the person's own ready uploads, newest first. */
  async uploadedBy(userId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('images')
      .select('id')
      .where('uploaded_by', '=', userId)
      .where('ready', '=', 1)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Details of the given images in the order of `ids`; ids that do not exist are skipped. */
  async withMedia(ids: readonly number[]): Promise<ImageWithMedia[]> {
    if (ids.length === 0) return [];
    const rows = await this.selectWithMedia(this.db).where('images.id', 'in', ids).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** One image the person may see and that is ready, or undefined. */
  async findVisible(user: AuthUser, id: number): Promise<ImageWithMedia | undefined> {
    return onlyVisible(this.selectWithMedia(this.db).where('images.id', '=', id).where('images.ready', '=', 1), user).executeTakeFirst();
  }

  /** One image in the Trash as this person sees it (`onlyInTrashOf`), or undefined: for its thumbnail there. */
  async findInTrashOf(user: AuthUser, id: number): Promise<ImageWithMedia | undefined> {
    return onlyInTrashOf(this.selectWithMedia(this.db).where('images.id', '=', id), user).executeTakeFirst();
  }

  /**
   * The visible image next to `id` in gallery order (newest first): `older` is the one after it,
   * `newer` the one before; at either end it wraps around. Names containing 'disabled' are skipped,
   * as the gallery hides them (spec §3). Each is one short index walk per part of the visible set.
   */
  async neighbour(user: AuthUser, id: number, direction: 'older' | 'newer'): Promise<number | undefined> {
    const older = direction === 'older';
    // One short walk per part of the visible set (see visibleParts); the nearest of their answers wins.
    const nearest = async (from?: number) => {
      const base = this.db
        .selectFrom('images')
        .select('images.id')
        .where('images.ready', '=', 1)
        .where(sql<boolean>`lower(images.image_name) not like '%disabled%'`);
      const steps = await Promise.all(
        visibleParts(from === undefined ? base : base.where('images.id', older ? '<' : '>', from), user).map((part) =>
          part.orderBy('images.id', older ? 'desc' : 'asc').limit(1).executeTakeFirst(),
        ),
      );
      const ids = steps.flatMap((row) => (row ? [row.id] : []));
      return ids.length === 0 ? undefined : older ? Math.max(...ids) : Math.min(...ids);
    };
    const step = await nearest(id);
    if (step !== undefined) return step;
    const wrapped = await nearest();
    return wrapped !== undefined && wrapped !== id ? wrapped : undefined;
  }

  /** Visible images among `ids` (ready or not), with their uploaders, for deciding a delete. */
  async visibleAmong(user: AuthUser, ids: readonly number[]): Promise<Pick<ImageRow, 'id' | 'uploaded_by' | 'media_id'>[]> {
    if (ids.length === 0) return [];
    return onlyVisible(
      this.db.selectFrom('images').select(['images.id', 'images.uploaded_by', 'images.media_id']).where('images.id', 'in', ids),
      user,
    ).execute();
  }

  /**
   * Moves the images to the Trash in one transaction (trash/): they keep their rows, tags, likes,
   * in-photo marks and share memberships, leave every list at once (`ready` 0, and the access layer
   * hides trashed rows), and their tags leave the usage counts (which count what the whole library
   * shows). A 'reset', so cached id lists, pages, vocabularies and photo-URL verdicts miss.
   */
  async trashImages(ids: readonly number[], trashedBy: number, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const mediaIds = [
        ...new Set((await trx.selectFrom('images').select('media_id').where('id', 'in', ids).execute()).map((r) => r.media_id)),
      ];
      // The same lock as a delete and markReady take, so `ready` cannot be set back meanwhile.
      await lockMedia(trx, mediaIds);
      const trashed = (
        await trx
          .updateTable('images')
          .set({ trashed_at: now, trashed_by: trashedBy, ready: 0 })
          .where('id', 'in', ids)
          .where('trashed_at', 'is', null)
          .returning('id')
          .execute()
      ).map((row) => row.id);
      await addTagUsageOfImages(trx, trashed, -1);
      await bumpLibraryVersion(trx, 'reset');
    });
  }

  /**
   * Deletes the images in one transaction, and marks every media no image uses any more as
   * 'deleting' (returned): its files are removed after the commit, and the row after them
   * (MediaProcessor.removeDeleted). The media rows are locked first (media.repository.ts: lock order).
   * `onlyTrashed`: only those of them still in the Trash (and, with `before`, trashed before it) go —
   * a delete forever or a purge never takes an image restored meanwhile.
   */
  async deleteImages(ids: readonly number[], onlyTrashed?: { before?: string }): Promise<MediaRow[]> {
    return this.db.transaction().execute(async (trx) => {
      const selectChosen = () =>
        trx
          .selectFrom('images')
          .select(['id', 'media_id', 'trashed_at'])
          .where('id', 'in', ids)
          .$if(onlyTrashed !== undefined, (qb) => qb.where('trashed_at', 'is not', null))
          .$if(onlyTrashed?.before !== undefined, (qb) => qb.where('trashed_at', '<=', onlyTrashed?.before ?? ''));
      const mediaIds = [...new Set((await selectChosen().execute()).map((r) => r.media_id))];
      await lockMedia(trx, mediaIds);
      // Read again under the lock: what is still chosen now is what goes.
      const chosen = await selectChosen().execute();
      if (chosen.length === 0) return [];
      const chosenIds = chosen.map((row) => row.id);
      // Their tags leave the usage counts (trashed ones already left them); likes and in-photo marks
      // go with them (also by cascade).
      await forgetTagsOfImages(trx, chosen.filter((row) => row.trashed_at === null).map((row) => row.id));
      await trx.deleteFrom('image_tags').where('image_id', 'in', chosenIds).execute();
      await trx.deleteFrom('likes').where('image_id', 'in', chosenIds).execute();
      await trx.deleteFrom('photo_people').where('image_id', 'in', chosenIds).execute();
      await trx.deleteFrom('images').where('id', 'in', chosenIds).execute();
      await bumpLibraryVersion(trx, 'reset');
      return markUnusedMediaDeleting(trx, mediaIds);
    });
  }

  private selectWithMedia(db: Kysely<DB>) {
    return db
      .selectFrom('images')
      .innerJoin('media', 'media.id', 'images.media_id')
      .selectAll('images')
      .select([
        'media.content_hash',
        'media.width as media_width',
        'media.height as media_height',
        'media.placeholder',
        'media.taken_at',
        'media.camera',
        'media.gps_latitude',
        'media.gps_longitude',
        'media.display_key',
        'media.thumbnail_key',
      ]);
  }
}
