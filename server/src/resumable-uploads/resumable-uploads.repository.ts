import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../db/schema.js';

/** One tus upload (migration 011_resumable_uploads). */
export interface ResumableUploadsTable {
  /** The id in the upload's URL: 32 hex digits. */
  id: string;
  user_id: number;
  file_name: string;
  file_type: string | null;
  /** File.lastModified as the client sent it (ms since 1970, as text). */
  last_modified: string | null;
  /** The SHA-256 the client declared, checked when the last byte is in. */
  declared_sha256: string | null;
  size: number;
  status: 'receiving' | 'finishing' | 'done';
  /** The SHA-256 of what arrived, once hashed (kept for recovery: the bytes go with the ingest). */
  content_sha256: string | null;
  outcome_status: 'kept' | 'duplicate' | 'refused' | null;
  outcome_reason: string | null;
  image_id: number | null;
  /** The process finishing it, and its heartbeat (as for media rows: image-processing/claims.ts). */
  claimed_by: string | null;
  claimed_at: string | null;
  created_at: string;
  /** Unfinished: when it is abandoned. Done: when its outcome is forgotten. */
  expires_at: string;
  finished_at: string | null;
}

export type ResumableUploadRow = Selectable<ResumableUploadsTable>;

export interface ClaimTerms {
  owner: string;
  now: string;
  /** A heartbeat older than this is a dead process's. */
  staleBefore: string;
}

export interface UploadOutcomeRow {
  status: 'kept' | 'duplicate' | 'refused';
  reason?: string | undefined;
  imageId?: number | undefined;
}

/** The table lives with this domain; schema.ts is left to the tables everyone reads. */
type Tables = DB & { resumable_uploads: ResumableUploadsTable };

export class ResumableUploadsRepository {
  private readonly db: Kysely<Tables>;

  constructor(db: Kysely<DB>) {
    this.db = db.withTables<{ resumable_uploads: ResumableUploadsTable }>();
  }

  find(id: string): Promise<ResumableUploadRow | undefined> {
    return this.db.selectFrom('resumable_uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** How many uploads a person has not finished, and their declared bytes. */
  async unfinishedOf(userId: number): Promise<{ count: number; bytes: number }> {
    const row = await this.db
      .selectFrom('resumable_uploads')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number | string | null>('size').as('bytes')])
      .where('user_id', '=', userId)
      .where('status', 'in', ['receiving', 'finishing'])
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), bytes: Number(row.bytes ?? 0) };
  }

  async insert(row: Pick<ResumableUploadRow, 'id' | 'user_id' | 'file_name' | 'file_type' | 'last_modified' | 'declared_sha256' | 'size' | 'created_at' | 'expires_at'>): Promise<void> {
    await this.db.insertInto('resumable_uploads').values({ ...row, status: 'receiving' }).execute();
  }

  /**
   * Takes the upload for finishing: it is receiving, or finishing under a claim that is stale or
   * whose process is dead (`deadOwner`). False when someone else has it, or it is done.
   */
  async claim(id: string, terms: ClaimTerms, deadOwner?: string): Promise<boolean> {
    const result = await this.db
      .updateTable('resumable_uploads')
      .set({ status: 'finishing', claimed_by: terms.owner, claimed_at: terms.now })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'receiving'),
          eb.and([
            eb('status', '=', 'finishing'),
            eb.or([
              eb('claimed_by', 'is', null),
              eb('claimed_at', '<', terms.staleBefore),
              ...(deadOwner ? [eb('claimed_by', '=', deadOwner)] : []),
            ]),
          ]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async recordContentHash(id: string, owner: string, sha256: string): Promise<void> {
    await this.db.updateTable('resumable_uploads').set({ content_sha256: sha256 }).where('id', '=', id).where('claimed_by', '=', owner).execute();
  }

  /** The outcome is known: the upload is done (only while `owner` still holds it). */
  async finish(id: string, owner: string, outcome: UploadOutcomeRow, now: string, forgetAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable('resumable_uploads')
      .set({
        status: 'done',
        outcome_status: outcome.status,
        outcome_reason: outcome.reason ?? null,
        image_id: outcome.imageId ?? null,
        claimed_by: null,
        claimed_at: null,
        finished_at: now,
        expires_at: forgetAt,
      })
      .where('id', '=', id)
      .where('status', '=', 'finishing')
      .where('claimed_by', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async refreshClaims(owner: string, ids: string[], now: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.updateTable('resumable_uploads').set({ claimed_at: now }).where('claimed_by', '=', owner).where('id', 'in', ids).execute();
  }

  /** Lets another process (or the next start) take over at once what `owner` still holds. */
  async releaseClaims(owner: string): Promise<void> {
    await this.db.updateTable('resumable_uploads').set({ claimed_by: null, claimed_at: null }).where('claimed_by', '=', owner).execute();
  }

  /** Uploads whose last byte is in but that nobody may be finishing (the sweep decides per row). */
  finishing(limit: number): Promise<ResumableUploadRow[]> {
    return this.db.selectFrom('resumable_uploads').selectAll().where('status', '=', 'finishing').orderBy('created_at').limit(limit).execute();
  }

  /** Unfinished uploads past their expiry, and done ones whose outcome may be forgotten. */
  expired(now: string, limit: number): Promise<ResumableUploadRow[]> {
    return this.db
      .selectFrom('resumable_uploads')
      .selectAll()
      .where('status', 'in', ['receiving', 'done'])
      .where('expires_at', '<', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
  }

  /** Removes the row, unless it changed state meanwhile (an expired upload that got its last byte after all). */
  async delete(id: string, status: ResumableUploadRow['status']): Promise<boolean> {
    const result = await this.db.deleteFrom('resumable_uploads').where('id', '=', id).where('status', '=', status).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /**
   * Which of these contents the person has among their own images (ready or being processed; not in
   * the Trash, where a re-upload brings a photo back), with one image id each. Others' images are
   * never looked at.
   */
  async knownContents(userId: number, files: readonly { sha256: string; size: number }[]): Promise<{ sha256: string; imageId: number }[]> {
    if (files.length === 0) return [];
    const sizes = new Map(files.map((f) => [f.sha256, f.size]));
    const rows = await this.db
      .selectFrom('images')
      .innerJoin('media', 'media.id', 'images.media_id')
      .select(['media.content_hash as sha256', 'media.byte_size as size', 'images.id as imageId'])
      .where('images.uploaded_by', '=', userId)
      .where('images.trashed_at', 'is', null)
      .where('media.status', '!=', 'deleting')
      .where('media.content_hash', 'in', [...sizes.keys()])
      .execute();
    return rows.filter((row) => sizes.get(row.sha256) === Number(row.size)).map((row) => ({ sha256: row.sha256, imageId: row.imageId }));
  }
}
