import { type Kysely, type SelectQueryBuilder, SqliteAdapter, sql } from 'kysely';
import { onlyInTrashOf, onlyVisible, onlyVisibleToWholeLibraryViewers, visibleParts } from '../access/image-visibility.js';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB, ImageRow, MediaRow } from '../db/schema.js';
import { addTagUsageOfImages, forgetTagsOfImages } from '../tags/tag-changes.repository.js';
import { bumpLibraryVersion } from '../read-caches/library-version.js';
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

/** An image's place in gallery order: newest `taken_key` first, ties by id (decision 0009). */
export interface OrderedId {
  id: number;
  taken_key: number;
}

/** A whole list in gallery order, as two columns (ids and their keys). */
export interface OrderedColumns {
  ids: number[];
  keys: number[];
}

/** Everyone who sees the whole library (`seesWholeLibrary`) reads one list, as this viewer. */
export const WHOLE_LIBRARY = 'whole-library';
export type ListViewer = AuthUser | typeof WHOLE_LIBRARY;

/** Reads and deletes people's images. Every read for a person is filtered by `onlyVisible`. */
export class ImagesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Every visible, ready image in gallery order (read off the covering `(ready, taken_key, id, …)`
   * index). A million rows as a million result objects take seconds and hundreds of MB of garbage;
   * aggregated into two comma-separated texts they are one row, parsed in a fraction of that. SQL
   * does not promise that an aggregate keeps its subquery's order (both databases do here), so the
   * order is checked and the plain read is the fallback.
   */
  async allVisibleIds(viewer: ListViewer): Promise<OrderedColumns> {
    const ordered = newestTakenFirst(this.visibleTo(this.db.selectFrom('images').select(['images.id', 'images.taken_key']).where('images.ready', '=', 1), viewer));
    const joined = this.db.getExecutor().adapter instanceof SqliteAdapter
      ? sql<string>`group_concat(${sql.ref('ordered.id')})`
      : sql<string>`string_agg(${sql.ref('ordered.id')}::text, ',')`;
    const joinedKeys = this.db.getExecutor().adapter instanceof SqliteAdapter
      ? sql<string>`group_concat(${sql.ref('ordered.taken_key')})`
      : sql<string>`string_agg(${sql.ref('ordered.taken_key')}::text, ',')`;
    const row = await this.db.selectFrom(ordered.as('ordered')).select([joined.as('ids'), joinedKeys.as('keys')]).executeTakeFirst();
    const columns = { ids: numbers(row?.ids), keys: numbers(row?.keys) };
    if (inGalleryOrder(columns)) return columns;
    const rows = await ordered.execute();
    return { ids: rows.map((r) => r.id), keys: rows.map((r) => Number(r.taken_key)) };
  }

  /** Visible images that became visible after library version `version`, in gallery order. */
  async visibleAfter(viewer: ListViewer, version: number): Promise<OrderedId[]> {
    return newestTakenFirst(
      this.visibleTo(
        this.db
          .selectFrom('images')
          .select(['images.id', 'images.taken_key'])
          .where('images.ready', '=', 1)
          .where('images.visible_since', '>', version),
        viewer,
      ),
    ).execute();
  }

  private visibleTo<O>(query: ImagesQuery<O>, viewer: ListViewer): ImagesQuery<O> {
    return viewer === WHOLE_LIBRARY ? onlyVisibleToWholeLibraryViewers(query) : onlyVisible(query, viewer);
  }

  /** Ids of the person's own ready uploads, newest taken first. */
  async uploadedBy(userId: number, limit: number): Promise<number[]> {
    const rows = await newestTakenFirst(
      this.db.selectFrom('images').select('images.id').where('images.uploaded_by', '=', userId).where('images.ready', '=', 1),
    )
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Details of the given images in the order of `ids`; ids that do not exist are skipped. */
  async withMedia(ids: readonly number[]): Promise<ImageWithMedia[]> {
    if (ids.length === 0) return [];
    const rows = await this.selectWithMedia(this.db).where('images.id', 'in', ids).execute();
    const byId = new Map(rows.map((row) => [row.id, withShape(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** One image the person may see and that is ready, or undefined. */
  async findVisible(user: AuthUser, id: number): Promise<ImageWithMedia | undefined> {
    const row = await onlyVisible(this.selectWithMedia(this.db).where('images.id', '=', id).where('images.ready', '=', 1), user).executeTakeFirst();
    return row && withShape(row);
  }

  /** One image in the Trash as this person sees it (`onlyInTrashOf`), or undefined: for its thumbnail there. */
  async findInTrashOf(user: AuthUser, id: number): Promise<ImageWithMedia | undefined> {
    const row = await onlyInTrashOf(this.selectWithMedia(this.db).where('images.id', '=', id), user).executeTakeFirst();
    return row && withShape(row);
  }

  /**
   * The visible image next to `from` in gallery order (newest taken first, ties by id): `older` is
   * the one after it, `newer` the one before; at either end it wraps around. Names containing
   * 'disabled' are skipped, as the gallery hides them (spec §3). Each is one short index walk per
   * part of the visible set, from the row value `(taken_key, id)` on.
   */
  async neighbour(user: AuthUser, from: OrderedId, direction: 'older' | 'newer'): Promise<number | undefined> {
    const older = direction === 'older';
    const order = older ? 'desc' : 'asc';
    const nearest = async (after?: OrderedId) => {
      const base = this.db
        .selectFrom('images')
        .select(['images.id', 'images.taken_key'])
        .where('images.ready', '=', 1)
        .where(sql<boolean>`lower(images.image_name) not like '%disabled%'`);
      const start =
        after === undefined
          ? base
          : base.where(sql<boolean>`(images.taken_key, images.id) ${sql.raw(older ? '<' : '>')} (${after.taken_key}, ${after.id})`);
      const steps = await Promise.all(
        visibleParts(start, user).map((part) =>
          part.orderBy('images.taken_key', order).orderBy('images.id', order).limit(1).executeTakeFirst(),
        ),
      );
      const found = steps.flatMap((row) => (row ? [row] : []));
      // The nearest of the parts' answers: the first in the walking direction.
      found.sort((a, b) => (a.taken_key - b.taken_key || a.id - b.id) * (older ? -1 : 1));
      return found[0]?.id;
    };
    const step = await nearest(from);
    if (step !== undefined) return step;
    const wrapped = await nearest();
    return wrapped !== undefined && wrapped !== from.id ? wrapped : undefined;
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
   * shows). Recorded as removals: cached id lists drop them, pages, vocabularies and photo-URL
   * verdicts miss (they follow the version).
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
      await bumpLibraryVersion(trx, { removed: trashed });
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
      await bumpLibraryVersion(trx, { removed: chosenIds });
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

/**
 * The same row as an object of one fixed shape. better-sqlite3 adds a row's columns one by one, and
 * past 16 of them V8 turns the object into a dictionary: these rows have 23, so each took ~2.1 KB
 * instead of ~0.9 KB (image-cards/ keeps 10,000 of them) and every read of a field was a hash lookup.
 * Listing the fields builds every row with the same hidden class, whatever the database.
 */
function withShape(row: ImageWithMedia): ImageWithMedia {
  return {
    id: row.id,
    media_id: row.media_id,
    uploaded_by: row.uploaded_by,
    file_name: row.file_name,
    image_name: row.image_name,
    ready: row.ready,
    visible_since: row.visible_since,
    created_at: row.created_at,
    trashed_at: row.trashed_at,
    trashed_by: row.trashed_by,
    taken_key: row.taken_key,
    date_source: row.date_source,
    file_modified_at: row.file_modified_at,
    content_hash: row.content_hash,
    media_width: row.media_width,
    media_height: row.media_height,
    placeholder: row.placeholder,
    taken_at: row.taken_at,
    camera: row.camera,
    gps_latitude: row.gps_latitude,
    gps_longitude: row.gps_longitude,
    display_key: row.display_key,
    thumbnail_key: row.thumbnail_key,
  };
}

/** Gallery order (decision 0009): newest taken first, ties by id — the order of the `…taken_key, id` indexes. */
export function newestTakenFirst<Q extends { orderBy: (column: 'images.taken_key' | 'images.id', order: 'desc') => Q }>(query: Q): Q {
  return query.orderBy('images.taken_key', 'desc').orderBy('images.id', 'desc');
}

type ImagesQuery<O> = SelectQueryBuilder<DB, 'images', O>;

/** '3,1,2' → [3, 1, 2]; nothing → []. */
function numbers(joined: string | null | undefined): number[] {
  return joined ? (JSON.parse(`[${joined}]`) as number[]) : [];
}

/** Whether the columns are one list in gallery order (newest key first, ties by id, descending). */
function inGalleryOrder({ ids, keys }: OrderedColumns): boolean {
  if (ids.length !== keys.length) return false;
  for (let i = 1; i < ids.length; i++) {
    const key = keys[i] as number;
    const before = keys[i - 1] as number;
    if (key > before || (key === before && (ids[i] as number) >= (ids[i - 1] as number))) return false;
  }
  return true;
}

/**
 * The newest ready images of the whole library, in gallery order (what a share-all link shows and
 * zips), off the (ready, taken_key, id, …) index. `ready = 1` also leaves out the Trash.
 */
export async function newestReadyIds(db: Kysely<DB>, limit: number): Promise<number[]> {
  const rows = await newestTakenFirst(db.selectFrom('images').select('images.id').where('images.ready', '=', 1)).limit(limit).execute();
  return rows.map((row) => row.id);
}
