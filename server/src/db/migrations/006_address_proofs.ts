import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { MigrationContext } from './index.js';

/**
 * Proven addresses (docs/decisions/0006): a share reaches an account only once the account has opened
 * a link mailed to its address. `users.email_confirmed_at` records when; `address_proofs` holds the
 * links' tokens (SHA-256 only), each bound to an address, not to an account, so a share mail sent
 * before the recipient signs up proves the address they sign up with.
 *
 * Accounts that exist when this runs: admins are marked confirmed (they see every image anyway and
 * receive nothing through shares); every other account starts unconfirmed, because before this
 * change anyone could sign up with someone else's address and nothing tells the real owners from
 * such claims. They see their own uploads as before and the web app asks them to confirm.
 */
export function addressProofs({ idColumn }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('email_confirmed_at', 'text').execute();
      await sql`update users set email_confirmed_at = created_at where role = 'admin'`.execute(db);

      await db.schema
        .createTable('address_proofs')
        .addColumn('id', 'integer', idColumn)
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('signup', 'share')`))
        /** Where the person goes once confirmed: '/' or '/sharedMedia'. Never a secret. */
        .addColumn('next_path', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      // Housekeeping deletes expired proofs by expiry.
      await db.schema.createIndex('address_proofs_expires_at').on('address_proofs').column('expires_at').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('address_proofs').execute();
      await db.schema.alterTable('users').dropColumn('email_confirmed_at').execute();
    },
  };
}
