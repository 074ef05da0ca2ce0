import { sql, type Kysely } from 'kysely';
import type { DB, NewUserRow, UserRow } from '../db/schema.js';

export class UsersRepository {
  constructor(private readonly db: Kysely<DB>) {}

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /**
   * Creates an account. The first account ever created administers the library (DECISIONS §1);
   * the role is decided inside the INSERT so two simultaneous first sign-ups cannot both win.
   */
  async insertFirstIsAdmin(user: Omit<NewUserRow, 'role'>): Promise<UserRow> {
    return this.db
      .insertInto('users')
      .values({ ...user, role: sql<'admin' | 'user'>`case when exists (select 1 from users) then 'user' else 'admin' end` })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Sets the profile image key; returns the key it replaced. */
  async replaceProfileImage(id: number, key: string, now: string): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('users').select('profile_image_key').where('id', '=', id).executeTakeFirst();
      await trx.updateTable('users').set({ profile_image_key: key, updated_at: now }).where('id', '=', id).execute();
      return row?.profile_image_key ?? null;
    });
  }

  async profileImageInUse(key: string): Promise<boolean> {
    return Boolean(await this.db.selectFrom('users').select('id').where('profile_image_key', '=', key).executeTakeFirst());
  }

  async updateUsername(id: number, username: string, now: string): Promise<void> {
    await this.db.updateTable('users').set({ username, updated_at: now }).where('id', '=', id).execute();
  }

  async updatePassword(id: number, passwordHash: string, now: string, db: Kysely<DB> = this.db): Promise<void> {
    await db
      .updateTable('users')
      .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1), updated_at: now }))
      .where('id', '=', id)
      .execute();
  }
}
