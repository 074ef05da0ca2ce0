import { type Kysely, type Transaction, sql } from 'kysely';
import type { DB } from '../db/schema.js';
import { newestReadyIds } from '../images/images.repository.js';

export type AccessKind = 'all' | 'restricted';

export interface OwnedRecord {
  id: number;
  kind: AccessKind;
  receiver_email: string;
  active: number;
}

export interface ReceivedRecord {
  id: number;
  kind: AccessKind;
  owner_id: number;
  owner_username: string;
}

type Db = Kysely<DB> | Transaction<DB>;

/** The SQL of access records and their images; the rules live in the sharing service. */
export class AccessRecordsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * The sharer's record for this receiver and kind, created if missing and switched on either way
   * (sharing again is a new, deliberate grant). An all-access grant always brings a new link: the
   * old one, perhaps switched off because it leaked, never works again (decision 0006).
   */
  async grant(trx: Transaction<DB>, grant: { ownerId: number; kind: AccessKind; email: string; now: string; linkSalt?: string; linkHash?: string }) {
    return trx
      .insertInto('access_records')
      .values({
        owner_id: grant.ownerId,
        kind: grant.kind,
        receiver_email: grant.email,
        active: 1,
        link_salt: grant.linkSalt ?? null,
        link_hash: grant.linkHash ?? null,
        created_at: grant.now,
        updated_at: grant.now,
      })
      .onConflict((oc) =>
        oc.columns(['owner_id', 'kind', 'receiver_email']).doUpdateSet({
          active: 1,
          updated_at: grant.now,
          link_salt: sql<string | null>`excluded.link_salt`,
          link_hash: sql<string | null>`excluded.link_hash`,
        }),
      )
      .returning(['id'])
      .executeTakeFirstOrThrow();
  }

  /**
   * A restricted share that was switched off starts over when shared again: it then covers only what
   * the new share names, never the photos of the old one (decision 0006).
   */
  async forgetImagesIfInactive(trx: Transaction<DB>, ownerId: number, email: string): Promise<void> {
    await trx
      .deleteFrom('access_record_images')
      .where('record_id', 'in', (eb) =>
        eb
          .selectFrom('access_records')
          .select('id')
          .where('owner_id', '=', ownerId)
          .where('kind', '=', 'restricted')
          .where('receiver_email', '=', email)
          .where('active', '=', 0),
      )
      .execute();
  }

  /** One of the owner's records of this kind, or undefined. */
  async ownedRecord(ownerId: number, id: number, kind: AccessKind): Promise<OwnedRecord | undefined> {
    return this.db
      .selectFrom('access_records')
      .select(['id', 'kind', 'receiver_email', 'active'])
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .where('kind', '=', kind)
      .executeTakeFirst();
  }

  async replaceLink(trx: Transaction<DB>, id: number, linkSalt: string, linkHash: string): Promise<void> {
    await trx.updateTable('access_records').set({ link_salt: linkSalt, link_hash: linkHash }).where('id', '=', id).execute();
  }

  /** Adds images to a restricted record; ones already in it are left alone (no duplicates). */
  async addImages(trx: Transaction<DB>, recordId: number, imageIds: readonly number[], now: string): Promise<void> {
    if (imageIds.length === 0) return;
    await trx
      .insertInto('access_record_images')
      .values(imageIds.map((imageId) => ({ record_id: recordId, image_id: imageId, created_at: now })))
      .onConflict((oc) => oc.columns(['record_id', 'image_id']).doNothing())
      .execute();
  }

  async findByLinkHash(linkHash: string): Promise<{ id: number; active: number } | undefined> {
    return this.db
      .selectFrom('access_records')
      .select(['id', 'active'])
      .where('link_hash', '=', linkHash)
      .where('kind', '=', 'all')
      .executeTakeFirst();
  }

  /** The owner's records, oldest first, at most `limit` (lists stay bounded). */
  async ownedBy(ownerId: number, limit: number): Promise<OwnedRecord[]> {
    return this.db
      .selectFrom('access_records')
      .select(['id', 'kind', 'receiver_email', 'active'])
      .where('owner_id', '=', ownerId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async ownedFor(ownerId: number, email: string): Promise<OwnedRecord[]> {
    return this.db
      .selectFrom('access_records')
      .select(['id', 'kind', 'receiver_email', 'active'])
      .where('owner_id', '=', ownerId)
      .where('receiver_email', '=', email)
      .execute();
  }

  /** Switches one of the owner's records; returns false when there is no such record of theirs. */
  async setActive(trx: Transaction<DB>, ownerId: number, id: number, kind: AccessKind, active: boolean, now: string): Promise<boolean> {
    const result = await trx
      .updateTable('access_records')
      .set({ active: active ? 1 : 0, updated_at: now })
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Active records for this receiver e-mail, with who granted them, oldest first. */
  async activeFor(email: string): Promise<ReceivedRecord[]> {
    return this.db
      .selectFrom('access_records')
      .innerJoin('users', 'users.id', 'access_records.owner_id')
      .select(['access_records.id', 'access_records.kind', 'access_records.owner_id', 'users.username as owner_username'])
      .where('access_records.receiver_email', '=', email)
      .where('access_records.active', '=', 1)
      .orderBy('access_records.id')
      .execute();
  }

  /** Ready images of the given restricted records, in gallery order (newest taken first). */
  async imageIdsOf(recordIds: readonly number[], limit: number): Promise<number[]> {
    if (recordIds.length === 0) return [];
    const rows = await this.recordImages(this.db, recordIds)
      .select(['images.id', 'images.taken_key'])
      .distinct()
      .orderBy('images.taken_key', 'desc')
      .orderBy('images.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  async countImagesOf(recordIds: readonly number[]): Promise<number> {
    if (recordIds.length === 0) return 0;
    const row = await this.recordImages(this.db, recordIds)
      .select(sql<number>`count(distinct images.id)`.as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Ready images per receiver over the owner's restricted records. */
  async restrictedCountsOf(ownerId: number): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('access_records')
      .innerJoin('access_record_images', 'access_record_images.record_id', 'access_records.id')
      .innerJoin('images', 'images.id', 'access_record_images.image_id')
      .select(['access_records.receiver_email', sql<number>`count(*)`.as('count')])
      .where('access_records.owner_id', '=', ownerId)
      .where('access_records.kind', '=', 'restricted')
      .where('images.ready', '=', 1)
      .groupBy('access_records.receiver_email')
      .execute();
    return new Map(rows.map((row) => [row.receiver_email, Number(row.count)]));
  }

  /**
   * The newest ready images of the whole library (what an all-access share shows). Here and in the
   * other reads of this file, `ready = 1` also leaves out the Trash: a trashed image has ready 0.
   */
  async newestReady(limit: number): Promise<number[]> {
    return newestReadyIds(this.db, limit);
  }

  async countReady(): Promise<number> {
    const row = await this.db.selectFrom('images').select(sql<number>`count(*)`.as('count')).where('ready', '=', 1).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private recordImages(db: Db, recordIds: readonly number[]) {
    return db
      .selectFrom('access_record_images')
      .innerJoin('images', 'images.id', 'access_record_images.image_id')
      .where('access_record_images.record_id', 'in', recordIds)
      .where('images.ready', '=', 1);
  }
}
