import type { AuthUser } from '../../src/auth/auth-user.js';
import type { Database } from '../../src/db/database.js';

/**
 * An admin and `count` ready images written straight into the database (no files): for tests of
 * the read caches, which read rows and never the pictures. Image i is taken on 2020-01-(1+i), so
 * the last one is the newest.
 */
export async function seed(database: Database, count: number): Promise<{ admin: AuthUser; ids: number[] }> {
  const now = new Date().toISOString();
  const { db } = database;
  const user = await db
    .insertInto('users')
    .values({ username: 'admin', email: 'admin@example.test', password_hash: 'x', role: 'admin', profile_image_key: null, email_confirmed_at: now, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const media = await db
      .insertInto('media')
      .values({
        content_hash: `hash-${i}`, mime: 'image/png', byte_size: 1, status: 'ready', width: 1, height: 1, placeholder: null, taken_at: null, camera: null,
        gps_latitude: null, gps_longitude: null, taken_offset: null, file_date: null, lens: null, f_number: null, exposure_time: null, iso: null,
        focal_length: null, original_key: `originals/hash-${i}`, display_key: null, thumbnail_key: null, created_at: now, claimed_at: null, claimed_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const image = await db
      .insertInto('images')
      .values({
        media_id: media.id, uploaded_by: user.id, file_name: `p${i}.png`, image_name: `p${i}`, ready: 1, visible_since: 0, created_at: now,
        trashed_at: null, trashed_by: null, taken_key: Date.UTC(2020, 0, 1 + i), file_modified_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(image.id);
  }
  const admin: AuthUser = { id: user.id, role: 'admin', username: 'admin', email: 'admin@example.test', emailConfirmed: true } as AuthUser;
  return { admin, ids };
}
