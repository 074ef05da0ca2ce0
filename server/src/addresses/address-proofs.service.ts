import { createHash, randomBytes } from 'node:crypto';
import type { AddressProof } from '@photo/contract';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { LimitRule, Throttle } from '../auth/throttle.js';
import type { UsersRepository } from '../auth/users.repository.js';
import type { DB, UserRow } from '../db/schema.js';
import { AppError, conflict, notFound } from '../http/errors.js';
import { bumpLibraryVersion } from '../read-caches/library-version.js';
import type { Mailer } from '../mail/mailer.js';
import { type Clock, isoNow } from '../shared/clock.js';
import type { AddressProofsRepository, ProofPurpose, ProofRow } from './address-proofs.repository.js';
import { confirmationMail } from './confirmation.mail.js';

/** How long a mailed link proves its address: a confirmation mail a week, a share mail a month. */
export const PROOF_DAYS: Record<ProofPurpose, number> = { signup: 7, share: 30 };

export const PROOF_INVALID = 'This link is not valid any more: it was already used, has expired, or was not copied whole.';

export const resendLimit: LimitRule = {
  name: 'confirm-resend',
  max: 5,
  windowSeconds: 3600,
  message: 'Several confirmation links were sent in the last hour. Please check your mail (and its spam folder), or try again later.',
};

export interface AddressProofsDeps {
  db: Kysely<DB>;
  proofs: AddressProofsRepository;
  users: UsersRepository;
  mailer: Mailer;
  throttle: Throttle;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
}

/**
 * Proving that an account owns its e-mail address (decision 0006). A proof is a random 256-bit token
 * in a mailed link, bound to an address (not an account) and stored as SHA-256 only. Opening the link
 * confirms whichever account holds the address, or lets its owner sign up with it; from then on the
 * access layer lets shares sent to the address reach the account.
 */
export class AddressProofsService {
  constructor(private readonly deps: AddressProofsDeps) {}

  /** Creates a proof for `email` (inside the caller's transaction when given); returns its token. */
  async issue(db: Kysely<DB>, email: string, purpose: ProofPurpose, nextPath: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + PROOF_DAYS[purpose] * 86_400_000).toISOString();
    await this.deps.proofs.create(db, { email, tokenHash: hashToken(token), purpose, nextPath, now: now.toISOString(), expiresAt });
    return token;
  }

  /** Where a mailed proof is opened (the web app's `/confirm-email/:token`). */
  confirmUrl(token: string): string {
    return `${this.deps.publicUrl}/confirm-email/${token}`;
  }

  /** GET /api/address-proofs/:token: what the link proves, for the web app to offer the right step. */
  async describe(token: string): Promise<AddressProof> {
    const proof = await this.deps.proofs.find(hashToken(token));
    if (!proof) throw notFound(PROOF_INVALID);
    const account = await this.deps.users.findByEmail(proof.email);
    const about = { email: proof.email, next: proof.next_path, account: account ? describeAccount(account) : null };
    // A link opened again after it did its work still says where things stand.
    if (account?.email_confirmed_at) return { ...about, state: 'confirmed' };
    if (!this.usable(proof)) throw notFound(PROOF_INVALID);
    return { ...about, state: account ? 'pending' : 'signup' };
  }

  /** Confirms the account holding the link's address; the link is used up. Shares reach it at once. */
  async confirm(token: string): Promise<{ message: string; email: string; next: string }> {
    const { db, proofs, users, clock } = this.deps;
    const now = isoNow(clock);
    const used = await db.transaction().execute(async (trx) => {
      const proof = await proofs.consume(trx, hashToken(token), now);
      if (!proof) return undefined;
      if (await users.confirmEmail(trx, proof.email, now)) {
        // What the account sees changed: cached id lists, pages and vocabularies must miss.
        await bumpLibraryVersion(trx, 'reset');
      } else if (!(await users.findByEmail(proof.email, trx))) {
        // Nothing to confirm yet: the throw rolls back, so the link still works for signing up.
        throw conflict(`No account uses ${proof.email} yet. Sign up with it to see what was shared with you.`);
      }
      return proof;
    });
    const proof = used ?? (await this.alreadyConfirmed(token));
    return { message: `Your address ${proof.email} is confirmed.`, email: proof.email, next: proof.next_path };
  }

  /**
   * "This isn't my account": someone signed up with the link's address without owning it. The
   * unconfirmed account loses the address (it gets a placeholder it cannot sign in with) and its
   * sessions; the link stays usable, so its owner can sign up with the address now.
   */
  async release(token: string): Promise<{ message: string; email: string }> {
    const { db, proofs, users, clock, logger } = this.deps;
    const proof = await proofs.find(hashToken(token));
    if (!proof || !this.usable(proof)) throw notFound(PROOF_INVALID);
    const placeholder = `released-${randomBytes(8).toString('hex')}@address.invalid`;
    const released = await db.transaction().execute((trx) => users.releaseEmail(trx, proof.email, placeholder, isoNow(clock)));
    if (!released) throw conflict(`No unconfirmed account uses ${proof.email}; nothing was changed.`);
    logger.warn({ email: proof.email, placeholder }, 'an unconfirmed account lost an address its owner said was not theirs');
    return { message: `${proof.email} no longer belongs to that account. You can sign up with it now.`, email: proof.email };
  }

  /** Inside sign-up's transaction: uses a proof mailed to exactly this address; false when it cannot. */
  async useForSignUp(db: Kysely<DB>, token: string, email: string, now: string): Promise<boolean> {
    return Boolean(await this.deps.proofs.consume(db, hashToken(token), now, email));
  }

  /** Mails a new account its confirmation link; a mail that cannot be sent is logged (resend exists). */
  async sendConfirmation(user: Pick<UserRow, 'id' | 'email' | 'username'>): Promise<void> {
    try {
      await this.mailConfirmation(user);
    } catch (err) {
      this.deps.logger.error({ err, userId: user.id }, 'confirmation mail could not be sent');
    }
  }

  /** POST /api/address-confirmation/resend: a new link, a few an hour per account. */
  async resend(user: AuthUser): Promise<{ message: string }> {
    if (user.emailConfirmed) return { message: `Your address ${user.email} is already confirmed.` };
    await this.deps.throttle.consume(resendLimit, String(user.id));
    try {
      await this.mailConfirmation(user);
    } catch (err) {
      this.deps.logger.error({ err, userId: user.id }, 'confirmation mail could not be sent');
      throw new AppError(503, 'The confirmation mail could not be sent just now. Please try again in a few minutes.');
    }
    return { message: `We sent a new confirmation link to ${user.email}.` };
  }

  async deleteExpiredBefore(cutoff: string): Promise<void> {
    await this.deps.proofs.deleteExpiredBefore(cutoff);
  }

  private async mailConfirmation(user: Pick<UserRow, 'email' | 'username'>): Promise<void> {
    const token = await this.issue(this.deps.db, user.email, 'signup', '/');
    await this.deps.mailer.send(confirmationMail(user.email, user.username, this.confirmUrl(token), PROOF_DAYS.signup));
  }

  private usable(proof: ProofRow): boolean {
    return proof.used_at === null && proof.expires_at > isoNow(this.deps.clock);
  }

  /** A link opened twice (or racing itself) is fine once its address is confirmed. */
  private async alreadyConfirmed(token: string): Promise<ProofRow> {
    const proof = await this.deps.proofs.find(hashToken(token));
    const account = proof && (await this.deps.users.findByEmail(proof.email));
    if (!proof || !account?.email_confirmed_at) throw notFound(PROOF_INVALID);
    return proof;
  }
}

function describeAccount(account: UserRow): { username: string; createdAt: string } {
  return { username: account.username, createdAt: account.created_at };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
