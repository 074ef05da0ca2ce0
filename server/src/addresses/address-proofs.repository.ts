import type { Kysely } from 'kysely';
import type { AddressProofsTable, DB } from '../db/schema.js';

export type ProofPurpose = AddressProofsTable['purpose'];

export interface ProofRow {
  email: string;
  next_path: string;
  expires_at: string;
  used_at: string | null;
}

/** The SQL of mailed address proofs (tokens kept as SHA-256 only); the rules live in the service. */
export class AddressProofsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async create(
    db: Kysely<DB>,
    proof: { email: string; tokenHash: string; purpose: ProofPurpose; nextPath: string; now: string; expiresAt: string },
  ): Promise<void> {
    await db
      .insertInto('address_proofs')
      .values({
        email: proof.email,
        token_hash: proof.tokenHash,
        purpose: proof.purpose,
        next_path: proof.nextPath,
        created_at: proof.now,
        expires_at: proof.expiresAt,
        used_at: null,
      })
      .execute();
  }

  find(tokenHash: string): Promise<ProofRow | undefined> {
    return this.db
      .selectFrom('address_proofs')
      .select(['email', 'next_path', 'expires_at', 'used_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  /**
   * Marks an unused, unexpired proof used and returns it — one conditional UPDATE, so two requests
   * racing with the same link cannot both use it. `email`, when given, must match.
   */
  async consume(db: Kysely<DB>, tokenHash: string, now: string, email?: string): Promise<ProofRow | undefined> {
    let update = db
      .updateTable('address_proofs')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now);
    if (email !== undefined) update = update.where('email', '=', email);
    return update.returning(['email', 'next_path', 'expires_at', 'used_at']).executeTakeFirst();
  }

  async deleteExpiredBefore(cutoff: string): Promise<void> {
    await this.db.deleteFrom('address_proofs').where('expires_at', '<', cutoff).execute();
  }
}
