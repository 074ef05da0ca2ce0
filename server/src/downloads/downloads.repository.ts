import type { Kysely } from 'kysely';
import type { DB, UserRow } from '../db/schema.js';
import { newestReadyIds } from '../images/images.repository.js';

/** One original as a download needs it: where it is stored, its type and size, its uploaded name. */
export interface OriginalFile {
  id: number;
  file_name: string;
  original_key: string;
  mime: string;
  byte_size: number;
  uploaded_by: number;
}

export interface TicketRow {
  user_id: number;
  kind: 'original' | 'zip';
  image_ids: string;
  file_name: string;
}

export interface LinkRecord {
  id: number;
  active: number;
  allow_downloads: number;
}

/** The SQL behind downloads: tickets, originals, share-all records' download switch. */
export class DownloadsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async addTicket(row: TicketRow & { token_hash: string; created_at: string; expires_at: string }): Promise<void> {
    await this.db.insertInto('download_tickets').values(row).execute();
  }

  async ticket(tokenHash: string, now: string): Promise<TicketRow | undefined> {
    return this.db
      .selectFrom('download_tickets')
      .select(['user_id', 'kind', 'image_ids', 'file_name'])
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async deleteExpiredBefore(cutoff: string): Promise<void> {
    await this.db.deleteFrom('download_tickets').where('expires_at', '<', cutoff).execute();
  }

  async account(userId: number): Promise<Pick<UserRow, 'id' | 'role' | 'username' | 'email' | 'email_confirmed_at'> | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'role', 'username', 'email', 'email_confirmed_at'])
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  /** The stored originals of the ready images among `ids`, in the order of `ids`. */
  async originals(ids: readonly number[]): Promise<OriginalFile[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('images')
      .innerJoin('media', 'media.id', 'images.media_id')
      .select(['images.id', 'images.file_name', 'media.original_key', 'media.mime', 'media.byte_size', 'images.uploaded_by'])
      .where('images.id', 'in', ids)
      .where('images.ready', '=', 1)
      .where('media.status', '=', 'ready')
      .execute();
    const byId = new Map(rows.map((row) => [row.id, { ...row, byte_size: Number(row.byte_size) }]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Ids of the newest ready images (what a share-all link shows), at most `limit`. */
  async newestReady(limit: number): Promise<number[]> {
    return newestReadyIds(this.db, limit);
  }

  async linkRecord(linkHash: string): Promise<LinkRecord | undefined> {
    return this.db
      .selectFrom('access_records')
      .select(['id', 'active', 'allow_downloads'])
      .where('link_hash', '=', linkHash)
      .where('kind', '=', 'all')
      .executeTakeFirst();
  }

  async allAccessOf(ownerId: number): Promise<{ id: number; allow_downloads: number }[]> {
    return this.db
      .selectFrom('access_records')
      .select(['id', 'allow_downloads'])
      .where('owner_id', '=', ownerId)
      .where('kind', '=', 'all')
      .orderBy('id')
      .execute();
  }

  async setAllowDownloads(ownerId: number, recordId: number, allow: boolean, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('access_records')
      .set({ allow_downloads: allow ? 1 : 0, updated_at: now })
      .where('id', '=', recordId)
      .where('owner_id', '=', ownerId)
      .where('kind', '=', 'all')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
