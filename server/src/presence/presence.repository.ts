import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** "I'm in this photo": one row per person marked present in an image. */
export class PresenceRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Marks the person; marking again changes nothing. */
  async mark(imageId: number, userId: number, now: string): Promise<void> {
    await this.db
      .insertInto('photo_people')
      .values({ image_id: imageId, user_id: userId, created_at: now })
      .onConflict((oc) => oc.columns(['image_id', 'user_id']).doNothing())
      .execute();
  }

  async isMarked(imageId: number, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('photo_people')
      .select('user_id')
      .where('image_id', '=', imageId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Names of the people marked in the image, in the order they marked themselves. */
  async namesIn(imageId: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('photo_people')
      .innerJoin('users', 'users.id', 'photo_people.user_id')
      .select('users.username')
      .where('photo_people.image_id', '=', imageId)
      .orderBy('photo_people.created_at')
      .orderBy('users.id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.username);
  }

  /** Images the person is marked in, in gallery order (newest taken first). */
  async imagesOf(userId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('photo_people')
      .innerJoin('images', 'images.id', 'photo_people.image_id')
      .select('photo_people.image_id')
      .where('photo_people.user_id', '=', userId)
      .orderBy('images.taken_key', 'desc')
      .orderBy('images.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.image_id);
  }
}
