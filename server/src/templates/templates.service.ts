import type { EmailTemplate } from '@photo/contract';
import type { Transaction } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.js';
import { conflict, notFound } from '../http/errors.js';
import { type Clock, isoNow } from '../shared/clock.js';
import type { TemplateFields, TemplateRow, TemplatesRepository } from './templates.repository.js';

interface TemplateInput {
  templateName: string;
  subjectEmail: string;
  bodyEmail: string;
  isDefault: boolean;
}

/**
 * Each person's share-mail templates (spec §4): at most one default, kept by clearing the old
 * default in the same transaction (and by a partial unique index); the first template becomes the
 * default; another person's template is never found (404).
 */
export class TemplatesService {
  constructor(
    private readonly templates: TemplatesRepository,
    private readonly clock: Clock,
  ) {}

  /** Spec §4's load rule: a lone template that is not default is made the default. */
  async list(user: AuthUser): Promise<EmailTemplate[]> {
    const rows = await this.templates.list(user.id);
    const [only] = rows;
    if (rows.length === 1 && only && !only.is_default) {
      await this.write(async (trx) => {
        await this.templates.clearDefault(trx, user.id);
        await this.templates.setDefault(trx, user.id, only.id, isoNow(this.clock));
      });
      return [present({ ...only, is_default: 1 })];
    }
    return rows.map(present);
  }

  async create(user: AuthUser, input: TemplateInput): Promise<EmailTemplate> {
    const row = await this.write(async (trx) => {
      const isDefault = input.isDefault || !(await this.templates.hasAny(trx, user.id));
      if (isDefault) await this.templates.clearDefault(trx, user.id);
      return this.templates.insert(trx, user.id, fields(input, isDefault), isoNow(this.clock));
    });
    return present(row);
  }

  /** Saves the fields as given: `isDefault` true moves the default here, false leaves none here. */
  async update(user: AuthUser, id: string, input: TemplateInput): Promise<EmailTemplate> {
    const templateId = await this.ownTemplateId(user, id);
    const row = await this.write(async (trx) => {
      if (input.isDefault) await this.templates.clearDefault(trx, user.id);
      return this.templates.update(trx, user.id, templateId, fields(input, input.isDefault), isoNow(this.clock));
    });
    return present(row);
  }

  async setDefault(user: AuthUser, id: string): Promise<{ message: string }> {
    const templateId = await this.ownTemplateId(user, id);
    await this.write(async (trx) => {
      await this.templates.clearDefault(trx, user.id);
      await this.templates.setDefault(trx, user.id, templateId, isoNow(this.clock));
    });
    return { message: 'Default template updated.' };
  }

  private async ownTemplateId(user: AuthUser, id: string): Promise<number> {
    const numeric = parseId(id);
    const row = numeric === undefined ? undefined : await this.templates.find(user.id, numeric);
    if (!row) throw notFound('Template not found.');
    return row.id;
  }

  /** Two changes racing for the default: the unique index stops the second; say so plainly. */
  private async write<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    try {
      return await this.templates.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('Your templates were changed at the same time elsewhere. Please try again.');
      throw error;
    }
  }
}

function fields(input: TemplateInput, isDefault: boolean): TemplateFields {
  return { name: input.templateName, subject: input.subjectEmail, body: input.bodyEmail, isDefault };
}

function present(row: TemplateRow): EmailTemplate {
  return { _id: String(row.id), templateName: row.name, subjectEmail: row.subject, bodyEmail: row.body, isDefault: row.is_default === 1 };
}

function parseId(id: string): number | undefined {
  return /^\d{1,15}$/.test(id) ? Number(id) : undefined;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}
