import type { Kysely } from 'kysely';
import type { DB, UserRow } from '../db/schema.js';

export type ViewerAccount = Pick<UserRow, 'id' | 'role' | 'username' | 'email' | 'email_confirmed_at'>;

/**
 * The reads behind a photo request. Each reads the viewer's row together with the library version
 * in ONE statement (one round trip on PostgreSQL, one snapshot on both databases): the version is
 * what says whether a cached answer for this viewer is still the truth.
 */
export class MediaAccessRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async account(userId: number): Promise<{ account: ViewerAccount; version: number } | undefined> {
    const row = await this.db
      .selectFrom(['users', 'library_state'])
      .select(['users.id', 'users.role', 'users.username', 'users.email', 'users.email_confirmed_at', 'library_state.version'])
      .where('users.id', '=', userId)
      .where('library_state.id', '=', 1)
      .executeTakeFirst();
    if (!row) return undefined;
    const { version, ...account } = row;
    return { account, version: Number(version) };
  }

  async linkRecord(recordId: number): Promise<{ active: number; kind: 'all' | 'restricted'; linkHash: string | null; version: number } | undefined> {
    const row = await this.db
      .selectFrom(['access_records', 'library_state'])
      .select(['access_records.active', 'access_records.kind', 'access_records.link_hash', 'library_state.version'])
      .where('access_records.id', '=', recordId)
      .where('library_state.id', '=', 1)
      .executeTakeFirst();
    return row ? { active: Number(row.active), kind: row.kind, linkHash: row.link_hash, version: Number(row.version) } : undefined;
  }
}
