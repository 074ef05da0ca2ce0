import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DB, EmailTemplatesTable } from '../db/schema.js';

export type TemplateRow = Selectable<EmailTemplatesTable>;
export interface TemplateFields {
  name: string;
  subject: string;
  body: string;
  isDefault: boolean;
}

/** The SQL of e-mail templates, always within one owner's templates. */
export class TemplatesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  list(ownerId: number, db: Kysely<DB> = this.db): Promise<TemplateRow[]> {
    return db.selectFrom('email_templates').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute();
  }

  find(ownerId: number, id: number, db: Kysely<DB> = this.db): Promise<TemplateRow | undefined> {
    return db.selectFrom('email_templates').selectAll().where('owner_id', '=', ownerId).where('id', '=', id).executeTakeFirst();
  }

  findDefault(ownerId: number): Promise<TemplateRow | undefined> {
    return this.db.selectFrom('email_templates').selectAll().where('owner_id', '=', ownerId).where('is_default', '=', 1).executeTakeFirst();
  }

  async hasAny(trx: Transaction<DB>, ownerId: number): Promise<boolean> {
    return Boolean(await trx.selectFrom('email_templates').select('id').where('owner_id', '=', ownerId).limit(1).executeTakeFirst());
  }

  /** Clears the owner's default (before another becomes it: the unique index allows one). */
  async clearDefault(trx: Transaction<DB>, ownerId: number): Promise<void> {
    await trx.updateTable('email_templates').set({ is_default: 0 }).where('owner_id', '=', ownerId).where('is_default', '=', 1).execute();
  }

  async setDefault(trx: Transaction<DB>, ownerId: number, id: number, now: string): Promise<void> {
    await trx.updateTable('email_templates').set({ is_default: 1, updated_at: now }).where('owner_id', '=', ownerId).where('id', '=', id).execute();
  }

  insert(trx: Transaction<DB>, ownerId: number, fields: TemplateFields, now: string): Promise<TemplateRow> {
    return trx
      .insertInto('email_templates')
      .values({ owner_id: ownerId, ...columns(fields), created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(trx: Transaction<DB>, ownerId: number, id: number, fields: TemplateFields, now: string): Promise<TemplateRow> {
    return trx
      .updateTable('email_templates')
      .set({ ...columns(fields), updated_at: now })
      .where('owner_id', '=', ownerId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}

function columns(fields: TemplateFields) {
  return { name: fields.name, subject: fields.subject, body: fields.body, is_default: fields.isDefault ? 1 : 0 };
}
