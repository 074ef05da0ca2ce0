import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { inListSlices } from '../db/in-lists.js';
import { bumpLibraryVersion } from '../read-caches/library-version.js';

export interface LikeFacts {
  likes: number;
  liked: boolean;
}

/** After a change: the library version it made (undefined when nothing changed). */
export interface LikeChange extends LikeFacts {
  version: number | undefined;
}

/** One row per person and liked image (DECISIONS §3: likes are per person). */
export class LikesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Sets the person's like; a change bumps the library version in the same transaction, so cached
   * gallery pages show the new count. Answers the state afterwards.
   */
  async set(imageId: number, userId: number, liked: boolean, now: string): Promise<LikeChange> {
    return this.db.transaction().execute(async (trx) => {
      const result = liked
        ? await trx
            .insertInto('likes')
            .values({ image_id: imageId, user_id: userId, created_at: now })
            .onConflict((oc) => oc.columns(['image_id', 'user_id']).doNothing())
            .executeTakeFirst()
            .then((r) => r.numInsertedOrUpdatedRows ?? 0n)
        : await trx
            .deleteFrom('likes')
            .where('image_id', '=', imageId)
            .where('user_id', '=', userId)
            .executeTakeFirst()
            .then((r) => r.numDeletedRows);
      const version = Number(result) > 0 ? await bumpLibraryVersion(trx, { touched: [imageId], only: 'likes' }) : undefined;
      const count = await trx
        .selectFrom('likes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('image_id', '=', imageId)
        .executeTakeFirstOrThrow();
      return { likes: Number(count.n), liked, version };
    });
  }

  /** Likes of each image and whether `viewerId` is among them: one grouped query per thousand images. */
  async factsOf(imageIds: readonly number[], viewerId: number | undefined): Promise<Map<number, LikeFacts>> {
    const facts = new Map<number, LikeFacts>();
    for (const ids of inListSlices(imageIds)) {
      const rows = await this.db
        .selectFrom('likes')
        .select((eb) => [
          'likes.image_id',
          eb.fn.countAll<number>().as('likes'),
          eb.fn
            .sum<number>(eb.case().when('likes.user_id', '=', viewerId ?? -1).then(1).else(0).end())
            .as('mine'),
        ])
        .where('likes.image_id', 'in', ids)
        .groupBy('likes.image_id')
        .execute();
      for (const row of rows) facts.set(row.image_id, { likes: Number(row.likes), liked: Number(row.mine) > 0 });
    }
    return facts;
  }

  /** Who likes each of these images (images nobody likes are left out): one query per thousand images. */
  async likersOf(imageIds: readonly number[]): Promise<Map<number, number[]>> {
    const likers = new Map<number, number[]>();
    for (const ids of inListSlices(imageIds)) {
      const rows = await this.db
        .selectFrom('likes')
        .select(['likes.image_id', 'likes.user_id'])
        .where('likes.image_id', 'in', ids)
        .execute();
      for (const row of rows) {
        const list = likers.get(row.image_id);
        if (list) list.push(row.user_id);
        else likers.set(row.image_id, [row.user_id]);
      }
    }
    return likers;
  }

  /** Images the person liked, in gallery order (newest taken first). */
  async likedBy(userId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('likes')
      .innerJoin('images', 'images.id', 'likes.image_id')
      .select('likes.image_id')
      .where('likes.user_id', '=', userId)
      .orderBy('images.taken_key', 'desc')
      .orderBy('images.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.image_id);
  }
}
