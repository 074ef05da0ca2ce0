import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * The database as Kysely sees it. Timestamps are ISO-8601 UTC strings on both SQLite and
 * PostgreSQL: they sort correctly as text and read the same from either driver.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Stored lower-cased; unique. */
  email: string;
  password_hash: string;
  role: 'admin' | 'user';
  profile_image_key: string | null;
  /** Bumped when the password changes, so every token issued before stops working. */
  token_version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the token: a leaked database row cannot be turned into a working link. */
  token_hash: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface RateLimitsTable {
  key: string;
  /** Unix seconds at which the current counting window began. */
  window_start: number;
  count: number;
}

export interface DB {
  users: UsersTable;
  password_resets: PasswordResetsTable;
  rate_limits: RateLimitsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
