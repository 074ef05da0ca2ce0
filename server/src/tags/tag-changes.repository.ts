import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import { inListSlices } from '../db/in-lists.js';
import { bumpLibraryVersion } from '../read-caches/library-version.js';
import type { TagKind } from './tags.repository.js';

/**
 * Every change to tags on images and to the vocabulary. Each runs in one transaction that keeps
 * `tags.usage_count` equal to the tag's image_tags rows and bumps the library version, so cached
 * gallery pages show the change on the next read.
 */
export class TagChangesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Adds the tags (creating new ones) to every image as this person; true if anything was new. */
  async add(input: { imageIds: readonly number[]; names: readonly string[]; userId: number; kind: TagKind; now: string }): Promise<boolean> {
    const names = [...new Set(input.names)].sort();
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('tags')
        .values(names.map((name) => ({ name, created_at: input.now })))
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      // In id order, so concurrent writers lock tag rows in the same order (no deadlock on PostgreSQL).
      const tags = await trx.selectFrom('tags').select('id').where('name', 'in', names).orderBy('id').execute();
      let changed = false;
      for (const tag of tags) {
        const result = await trx
          .insertInto('image_tags')
          .values(input.imageIds.map((image_id) => ({ image_id, tag_id: tag.id, tagged_by: input.userId, kind: input.kind, created_at: input.now })))
          .onConflict((oc) => oc.columns(['image_id', 'tag_id', 'tagged_by']).doNothing())
          .executeTakeFirst();
        changed = (await addUsage(trx, tag.id, Number(result.numInsertedOrUpdatedRows ?? 0n))) || changed;
      }
      if (changed) await bumpLibraryVersion(trx, { touched: input.imageIds, only: 'tags' });
      return changed;
    });
  }

  /** Takes the tags off the image, whoever added them. */
  async remove(imageId: number, tagIds: readonly number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const tagId of [...tagIds].sort((a, b) => a - b)) {
        const result = await trx.deleteFrom('image_tags').where('image_id', '=', imageId).where('tag_id', '=', tagId).executeTakeFirst();
        await addUsage(trx, tagId, -Number(result.numDeletedRows));
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

async function addUsage(trx: Transaction<DB>, tagId: number, delta: number): Promise<boolean> {
  if (delta === 0) return false;
  await trx
    .updateTable('tags')
    .set((eb) => ({ usage_count: eb('usage_count', '+', delta) }))
    .where('id', '=', tagId)
    .execute();
  return true;
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
