import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { texts } from '@photo/contract';
import type { Database } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import { clientSubject } from '../http/client-address.js';
import { AppError, badRequest, conflict, unauthorized } from '../http/errors.js';
import type { Mailer } from '../mail/mailer.js';
import { passwordResetMail } from '../mail/password-reset.mail.js';
import { type Clock, isoNow } from '../shared/clock.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.js';
import type { PasswordResetsRepository } from './password-resets.repository.js';
import type { SessionTokens } from './session-tokens.js';
import type { LimitRule, Throttle } from './throttle.js';
import type { UsersRepository } from './users.repository.js';
import { type AuthUser, toAuthUser } from './auth-user.js';
import type { AddressProofsService } from '../addresses/address-proofs.service.js';
import type { LibraryVersion } from '../read-caches/library-version.js';

const RESET_TOKEN_MINUTES = 60;
const MINUTE = 60;

/**
 * Limits on the public auth calls. Sign-in attempts are counted before the password is checked, per
 * client (an IPv4 address or an IPv6 /64), per account *and* client, and per account from anywhere.
 * A stranger who guesses wrong locks out only themselves; the account-wide limit (a botnet) does not
 * stop clients that signed in to the account successfully before (`signinKnownClient`).
 */
export const authLimits = {
  signinPerIp: { name: 'signin-ip', max: 30, windowSeconds: 15 * MINUTE, message: texts.TOO_MANY_ATTEMPTS },
  signinPerAccountClient: { name: 'signin-account-client', max: 10, windowSeconds: 15 * MINUTE, message: texts.TOO_MANY_ATTEMPTS },
  signinPerAccount: { name: 'signin-account', max: 100, windowSeconds: 15 * MINUTE, message: texts.TOO_MANY_ATTEMPTS },
  signinKnownClient: { name: 'signin-known', max: 1, windowSeconds: 30 * 24 * 60 * MINUTE, message: '' },
  signupPerIp: { name: 'signup-ip', max: 50, windowSeconds: 60 * MINUTE, message: 'Too many sign-ups from this address. Please try again later.' },
  resetMailPerIp: { name: 'reset-ip', max: 20, windowSeconds: 60 * MINUTE, message: 'Too many reset requests. Please try again later.' },
  resetMailPerAccount: { name: 'reset-account', max: 5, windowSeconds: 60 * MINUTE, message: '' },
  resetPerIp: { name: 'reset-use-ip', max: 30, windowSeconds: 15 * MINUTE, message: 'Too many attempts. Please try again later.' },
} satisfies Record<string, LimitRule>;

export interface AuthServiceDeps {
  database: Database;
  users: UsersRepository;
  resets: PasswordResetsRepository;
  tokens: SessionTokens;
  throttle: Throttle;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  addresses: AddressProofsService;
  /** Where links in e-mails point: PUBLIC_URL, or the local address when it is unset. */
  publicUrl: string;
}

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  /**
   * Creates the account and signs it in (spec §4). Its address counts as confirmed only with a proof
   * mailed to that very address (a share mail's link); otherwise a confirmation link is mailed, and
   * until it is opened nothing shared with the address reaches the account (decision 0006).
   */
  async signUp(input: { username: string; email: string; password: string; proof?: string | undefined }, ip: string): Promise<string> {
    const { database, users, throttle, clock, addresses } = this.deps;
    await throttle.consume(authLimits.signupPerIp, clientSubject(ip));
    if (await users.findByEmail(input.email)) throw conflict('An account with this e-mail address already exists.');
    const passwordHash = await hashPassword(input.password);
    const now = isoNow(clock);
    let user: UserRow;
    try {
      user = await database.db.transaction().execute(async (trx) => {
        const proven = input.proof !== undefined && (await addresses.useForSignUp(trx, input.proof, input.email, now));
        return users.insertFirstIsAdmin(
          {
            username: input.username,
            email: input.email,
            password_hash: passwordHash,
            profile_image_key: null,
            email_confirmed_at: proven ? now : null,
            created_at: now,
            updated_at: now,
          },
          trx,
          database.dialect,
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('An account with this e-mail address already exists.');
      throw error;
    }
    this.deps.logger.info({ userId: user.id, role: user.role, confirmed: user.email_confirmed_at !== null }, 'account created');
    if (user.email_confirmed_at === null) await addresses.sendConfirmation(user);
    return this.issueToken(user);
  }

  async signIn(input: { email: string; password: string }, ip: string): Promise<string> {
    const { users, throttle } = this.deps;
    const client = clientSubject(ip);
    const accountClient = `${input.email}|${client}`;
    // Every attempt is counted before the (deliberately slow) password check, each count one atomic
    // UPDATE: of 200 guesses sent at once, those past the limit are refused without an argon2 run.
    await throttle.consume(authLimits.signinPerIp, client);
    await throttle.consume(authLimits.signinPerAccountClient, accountClient);
    await this.consumeAccountWide(input.email, accountClient);
    const user = await users.findByEmail(input.email);
    const valid = user ? await verifyPassword(user.password_hash, input.password) : (await burnPasswordCheck(input.password), false);
    if (!user || !valid) throw unauthorized(texts.SIGNIN_FAILED);
    // A right password was no guess: take its counts back, forget this client's failures, and
    // remember the client so an attack on the account from elsewhere cannot lock it out.
    await Promise.all([
      throttle.refund(authLimits.signinPerIp, client),
      throttle.refund(authLimits.signinPerAccount, input.email),
      throttle.clear(authLimits.signinPerAccountClient, accountClient),
      throttle.clear(authLimits.signinKnownClient, accountClient).then(() => throttle.record(authLimits.signinKnownClient, accountClient)),
    ]);
    return this.issueToken(user);
  }

  /** The account-wide limit holds strangers back; a client this account signed in from gets through. */
  private async consumeAccountWide(email: string, accountClient: string): Promise<void> {
    const { throttle } = this.deps;
    try {
      await throttle.consume(authLimits.signinPerAccount, email);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 429 && (await throttle.seen(authLimits.signinKnownClient, accountClient))) return;
      throw error;
    }
  }

  /** Always answers the same, so the call cannot be used to learn which e-mails have accounts. */
  async requestPasswordReset(email: string, ip: string): Promise<string> {
    const { users, throttle, resets, clock, mailer, logger } = this.deps;
    await throttle.consume(authLimits.resetMailPerIp, clientSubject(ip));
    const user = await users.findByEmail(email);
    if (!user) return texts.RESET_MAIL_SENT;
    try {
      await throttle.consume(authLimits.resetMailPerAccount, email);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 429) {
        logger.warn({ userId: user.id }, 'password reset mail limit reached; no mail sent');
        return texts.RESET_MAIL_SENT;
      }
      throw error;
    }
    const token = randomBytes(32).toString('base64url');
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + RESET_TOKEN_MINUTES * 60_000).toISOString();
    await resets.create(user.id, hashToken(token), expiresAt, now.toISOString());
    const url = `${this.deps.publicUrl}/reset-password/${token}`;
    try {
      await mailer.send(passwordResetMail(user.email, user.username, url, RESET_TOKEN_MINUTES));
    } catch (error) {
      // Still the same answer: a different one would reveal that the account exists.
      logger.error({ err: error, userId: user.id }, 'password reset mail could not be sent');
    }
    return texts.RESET_MAIL_SENT;
  }

  async resetPassword(input: { token: string; newPassword: string }, ip: string): Promise<string> {
    const { database, users, resets, throttle, clock, logger } = this.deps;
    await throttle.consume(authLimits.resetPerIp, clientSubject(ip));
    const passwordHash = await hashPassword(input.newPassword);
    const now = isoNow(clock);
    const userId = await database.db.transaction().execute(async (trx) => {
      const owner = await resets.consume(hashToken(input.token), now, trx);
      if (owner === undefined) return undefined;
      await users.updatePassword(owner, passwordHash, now, trx);
      await resets.invalidateAllForUser(owner, now, trx);
      return owner;
    });
    if (userId === undefined) throw badRequest(texts.RESET_TOKEN_INVALID);
    logger.info({ userId }, 'password reset');
    return texts.PASSWORD_RESET_DONE;
  }

  /** The person behind a bearer token, or null when the token is missing, forged, expired or revoked. */
  /**
   * The person behind a session token, checked against their account as it is now, and the library
   * version read in the same statement (the request's cached reads are checked against it:
   * read-caches/request-versions.ts). Null for a bad or expired token, or an account that is gone.
   */
  async authenticate(token: string): Promise<{ user: AuthUser; libraryVersion: LibraryVersion } | null> {
    const claims = await this.deps.tokens.verify(token);
    if (!claims) return null;
    const found = await this.deps.users.sessionAccount(claims.userId);
    // A password change bumps token_version: older tokens die with it; a deleted user's die too.
    if (!found || found.account.token_version !== claims.tokenVersion) return null;
    return { user: toAuthUser(found.account), libraryVersion: found.libraryVersion };
  }

  /**
   * A session token of the first administrator, for the server's own warm-up requests before it
   * listens (warm-up/warm-request-paths.ts); undefined while nobody has signed up. It is handed to
   * nothing outside the process, and is what that person's own sign-in would give them.
   */
  async warmUpToken(): Promise<string | undefined> {
    const admin = await this.deps.users.firstAdmin();
    return admin ? this.issueToken(admin) : undefined;
  }

  private issueToken(user: UserRow): Promise<string> {
    return this.deps.tokens.issue({
      userId: user.id,
      role: user.role,
      username: user.username,
      tokenVersion: user.token_version,
    });
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}
