import type { Kysely } from 'kysely';

/**
 * Who is working on a media row (image-processing/claims.ts): `claimed_by` names the process (host,
 * pid, start) and `claimed_at` is refreshed by it every few seconds while it works, so work a dead
 * process left behind is taken up within seconds, and at once by a restart on the same host. A
 * media row may now also be 'deleting': its images are gone and its files are being removed; the
 * row is kept until they are, so the same content cannot be stored again meanwhile.
 */
export function processingClaims() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('media').addColumn('claimed_by', 'text').execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('media').dropColumn('claimed_by').execute();
    },
  };
}
