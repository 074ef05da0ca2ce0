import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import { inListSlices } from '../db/in-lists.js';
import { hasRowLocks } from '../db/row-locks.js';
import { bumpLibraryVersion } from '../read-caches/library-version.js';
import type { TagKind } from './tags.repository.js';

/** What `add` changed: the tags went onto these images (those they were on already included). */
export interface TagsAdded {
  version: number;
  imageIds: readonly number[];
  names: readonly string[];
  kind: TagKind;
  /** The rows added: an image, a tag name. */
  added: readonly { imageId: number; name: string }[];
}

/**
 * Every change to tags on images and to the vocabulary. Each runs in one transaction that keeps
 * `tags.usage_count` equal to the tag's image_tags rows on images outside the Trash (decision 0008)
 * and bumps the library version, so cached gallery pages show the change on the next read.
 *
 * Counts stay exact however writes interleave (the access check of a call runs before its
 * transaction, so a photo may go to the Trash or come back between the two):
 * - Adding or removing a tag counts the row only if its image is outside the Trash *inside* the
 *   transaction, with the image held (`holdImages`) so that it cannot move meanwhile.
 * - Moving images to the Trash or back (`addTagUsageOfImages`) counts their rows as they are then.
 * - A merge recounts from the rows while no count changes (`countsTakeTurns`).
 * SQLite needs no locks for this: a write transaction holds the whole database (db/row-locks.ts).
 */
export class TagChangesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Adds the tags (creating new ones) to every image as this person. When anything was new: the
   * library version it committed as, and the rows it added (image and tag name), which the image
   * cards take in place (image-cards/image-cards.ts `tagsCommitted`); undefined when nothing was.
   */
  async add(input: { imageIds: readonly number[]; names: readonly string[]; userId: number; kind: TagKind; now: string }): Promise<TagsAdded | undefined> {
    const names = [...new Set(input.names)].sort();
    return this.db.transaction().execute(async (trx) => {
      const counted = await holdImages(trx, input.imageIds);
      await trx
        .insertInto('tags')
        .values(names.map((name) => ({ name, created_at: input.now })))
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      // In id order, so concurrent writers lock tag rows in the same order (no deadlock on PostgreSQL).
      const tags = await trx.selectFrom('tags').select(['id', 'name']).where('name', 'in', names).orderBy('id').execute();
      const added: { imageId: number; name: string }[] = [];
      for (const tag of tags) {
        const inserted = await trx
          .insertInto('image_tags')
          .values(input.imageIds.map((image_id) => ({ image_id, tag_id: tag.id, tagged_by: input.userId, kind: input.kind, created_at: input.now })))
          .onConflict((oc) => oc.columns(['image_id', 'tag_id', 'tagged_by']).doNothing())
          .returning('image_id')
          .execute();
        // A row on a photo in the Trash is kept (it comes back with a restore) but not counted.
        await addUsage(trx, tag.id, inserted.filter((row) => counted.has(row.image_id)).length);
        for (const row of inserted) added.push({ imageId: Number(row.image_id), name: tag.name });
      }
      if (added.length === 0) return undefined;
      const version = await bumpLibraryVersion(trx, { touched: input.imageIds, only: 'tags' });
      return { version, imageIds: input.imageIds, names, kind: input.kind, added };
    });
  }

  /** Takes the tags off the image, whoever added them. */
  async remove(imageId: number, tagIds: readonly number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const counted = (await holdImages(trx, [imageId])).has(imageId);
      for (const tagId of [...tagIds].sort((a, b) => a - b)) {
        const result = await trx.deleteFrom('image_tags').where('image_id', '=', imageId).where('tag_id', '=', tagId).executeTakeFirst();
        if (counted) await addUsage(trx, tagId, -Number(result.numDeletedRows));
      }
      await bumpLibraryVersion(trx, { touched: [imageId], only: 'tags' });
    });
  }

  async rename(tagId: number, name: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('tags').set({ name }).where('id', '=', tagId).execute();
      await bumpLibraryVersion(trx, 'relabel');
    });
  }

  /**
   * Moves every image's `from` tag onto `into` (an image that has both keeps one) and forgets
   * `from`, in one transaction.
   */
  async merge(fromId: number, intoId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await holdImagesTagged(trx, fromId);
      // The recount below is exact only if no count changes while it reads.
      await countsTakeTurns(trx, 'alone');
      await trx
        .insertInto('image_tags')
        .columns(['image_id', 'tag_id', 'tagged_by', 'kind', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('image_tags')
            .select(['image_id', eb.val(intoId).as('tag_id'), 'tagged_by', 'kind', 'created_at'])
            // (SQLite needs a WHERE in an INSERT … SELECT followed by ON CONFLICT; this is it.)
            .where('tag_id', '=', fromId),
        )
        .onConflict((oc) => oc.columns(['image_id', 'tag_id', 'tagged_by']).doNothing())
        .execute();
      await trx.deleteFrom('image_tags').where('tag_id', '=', fromId).execute();
      await trx.deleteFrom('tags').where('id', '=', fromId).execute();
      await trx
        .updateTable('tags')
        .set((eb) => ({
          // Trashed images' tags are out of the counts (trash/): they come back with a restore.
          usage_count: eb
            .selectFrom('image_tags')
            .innerJoin('images', 'images.id', 'image_tags.image_id')
            .select(eb.fn.countAll<number>().as('n'))
            .where('image_tags.tag_id', '=', intoId)
            .where('images.trashed_at', 'is', null),
        }))
        .where('id', '=', intoId)
        .execute();
      await bumpLibraryVersion(trx, 'relabel');
    });
  }
}

async function addUsage(trx: Transaction<DB>, tagId: number, delta: number): Promise<void> {
  if (delta === 0) return;
  await trx
    .updateTable('tags')
    .set((eb) => ({ usage_count: eb('usage_count', '+', delta) }))
    .where('id', '=', tagId)
    .execute();
}

/**
 * Holds the images while their tags change and answers those of them outside the Trash (whose rows
 * count). On PostgreSQL their media rows are share-locked first and then the image rows, in id order:
 * moving to the Trash, restoring and deleting lock the media rows for update before changing the
 * images (images/media.repository.ts: lock order), so each waits for the other and then sees what it
 * did; a re-upload restoring a photo (`linkImage`) shares the media lock but must update the image row,
 * which the share lock on it holds back. Then `countsTakeTurns` (after these locks, as those
 * writers take it after theirs).
 */
async function holdImages(trx: Transaction<DB>, imageIds: readonly number[]): Promise<Set<number>> {
  const locks = hasRowLocks(trx);
  if (locks) {
    await trx
      .selectFrom('media')
      .select('id')
      .where('id', 'in', (eb) => eb.selectFrom('images').select('images.media_id').where('images.id', 'in', imageIds))
      .orderBy('id')
      .forShare()
      .execute();
  }
  const rows = await trx
    .selectFrom('images')
    .select(['id', 'trashed_at'])
    .where('id', 'in', imageIds)
    .orderBy('id')
    .$if(locks, (qb) => qb.forShare())
    .execute();
  await countsTakeTurns(trx, 'shared');
  return new Set(rows.filter((row) => row.trashed_at === null).map((row) => row.id));
}

/**
 * For a merge, before anything else: the images carrying the tag being merged away, held as
 * `holdImages` holds them (their media rows share-locked, then the image rows, in id order; one
 * statement each, whatever their number). The merge then writes image_tags rows of those images
 * (and its inserts check the images' keys), which a delete of them (a Trash purge, "Delete forever")
 * locks too; taking the images first, in the order every writer takes them, the two wait for each
 * other instead of in a circle (PostgreSQL found the circle and failed one of them: a 500).
 */
async function holdImagesTagged(trx: Transaction<DB>, tagId: number): Promise<void> {
  if (!hasRowLocks(trx)) return;
  const tagged = trx.selectFrom('image_tags').select('image_tags.image_id').where('image_tags.tag_id', '=', tagId);
  await trx
    .selectFrom('media')
    .select('id')
    .where('id', 'in', trx.selectFrom('images').select('images.media_id').where('images.id', 'in', tagged))
    .orderBy('id')
    .forShare()
    .execute();
  await trx.selectFrom('images').select('id').where('id', 'in', tagged).orderBy('id').forShare().execute();
}

/** Any fixed number: the advisory lock that makes a tag merge and the changes of counts take turns. */
const TAG_COUNTS_LOCK = 7_340_002;

/**
 * PostgreSQL: a transaction that changes counts holds this lock shared, a merge holds it alone. A
 * merge recounts a tag from its rows in one statement (READ COMMITTED), which would miss a row added
 * or a photo trashed by a transaction still open, and then overwrite that transaction's own change
 * of the count. Shared holders never wait for each other; they are taken after the row locks above,
 * and a merge takes only those same locks before it (holdImagesTagged), so nothing waits in a circle.
 */
async function countsTakeTurns(trx: Transaction<DB>, mode: 'shared' | 'alone'): Promise<void> {
  if (!hasRowLocks(trx)) return;
  if (mode === 'alone') await sql`select pg_advisory_xact_lock(${TAG_COUNTS_LOCK})`.execute(trx);
  else await sql`select pg_advisory_xact_lock_shared(${TAG_COUNTS_LOCK})`.execute(trx);
}

/**
 * On PostgreSQL, locks the rows of these images' tags in id order, as every other writer of tag
 * rows takes them (adding and removing tags, one tag at a time in id order). The counts' UPDATE
 * alone takes them in whatever order its plan reads them. Two moves to the Trash, or one and an
 * add, could then each hold a tag row the other waits for: a deadlock, which PostgreSQL ends by
 * failing one of them (a 500, seen under server/test/tags-count-races.test.ts).
 */
async function lockTagsOfImages(trx: Transaction<DB>, imageIds: readonly number[]): Promise<void> {
  if (!hasRowLocks(trx)) return;
  const tagIds = new Set<number>();
  for (const ids of inListSlices(imageIds)) {
    for (const row of await trx.selectFrom('image_tags').select('tag_id').where('image_id', 'in', ids).execute()) tagIds.add(Number(row.tag_id));
  }
  for (const ids of inListSlices([...tagIds].sort((a, b) => a - b))) {
    await trx.selectFrom('tags').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
  }
}

/**
 * For a delete of images (inside its transaction): takes their tags' rows off the usage counts and
 * deletes them (the foreign key would cascade, but the counts must follow).
 */
export async function forgetTagsOfImages(trx: Transaction<DB>, imageIds: readonly number[]): Promise<void> {
  await addTagUsageOfImages(trx, imageIds, -1);
  for (const ids of inListSlices(imageIds)) await trx.deleteFrom('image_tags').where('image_id', 'in', ids).execute();
}

/**
 * For moving images to the Trash (`sign` -1) or back (+1), inside its transaction: their tags' rows
 * leave or rejoin the usage counts, which count what the whole library shows (a whole-library
 * vocabulary is read straight off them); the rows themselves stay, so a restore keeps the tags.
 */
export async function addTagUsageOfImages(trx: Transaction<DB>, imageIds: readonly number[], sign: 1 | -1): Promise<void> {
  if (imageIds.length === 0) return;
  await countsTakeTurns(trx, 'shared');
  await lockTagsOfImages(trx, imageIds);
  for (const ids of inListSlices(imageIds)) {
    await trx
      .updateTable('tags')
      .set((eb) => ({
        usage_count: eb(
          'usage_count',
          sign === 1 ? '+' : '-',
          eb
            .selectFrom('image_tags')
            .select(eb.fn.countAll<number>().as('n'))
            .whereRef('image_tags.tag_id', '=', 'tags.id')
            .where('image_tags.image_id', 'in', ids),
        ),
      }))
      .where('id', 'in', (eb) => eb.selectFrom('image_tags').select('image_tags.tag_id').where('image_tags.image_id', 'in', ids))
      .execute();
  }
}
