import { type CompiledQuery, sql, type Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import { BatchedSessionReads } from './batched-session-reads.js';
import type { ChangeStamp, LocalChanges } from '../db/local-changes.js';
import { prepareOnEachConnection } from '../db/prepared-statements.js';
import type { DB, NewUserRow, UserRow } from '../db/schema.js';
import type { LibraryVersion } from '../read-caches/library-version.js';

/** What a session check needs of an account. */
export type SessionAccountRow = Pick<UserRow, 'id' | 'role' | 'username' | 'email' | 'email_confirmed_at' | 'token_version'>;

/** Any fixed number: the advisory lock sign-ups take on PostgreSQL while deciding who is first. */
const FIRST_ACCOUNT_LOCK = 7_340_001;

type SessionRow = SessionAccountRow & { version: number | string; reset_version: number | string; list_version: number | string };

/** Stands for the account id in the compiled session statement (no account has it). */
const ANY_ID = -7_340_002;
/** Stands for the list of account ids in the batched one (compared by identity). */
const ANY_IDS: readonly number[] = Object.freeze([ANY_ID]);

/** Accounts kept for session checks at most (SQLite); past it they are all dropped and read again. */
const MAX_KEPT_ACCOUNTS = 10_000;

export class UsersRepository {
  private sessionStatement: CompiledQuery<SessionRow> | undefined;
  private batches: BatchedSessionReads<SessionRow> | undefined;
  /** SQLite: session answers kept with the stamp they were read at (db/local-changes.ts). */
  private readonly keptAccounts = new Map<number, { account: SessionAccountRow | undefined; stamp: ChangeStamp }>();
  private keptVersion: { libraryVersion: LibraryVersion; stamp: ChangeStamp } | undefined;

  /** `changes`: on SQLite, the session check is answered from what it read last while nothing changed. */
  constructor(
    private readonly db: Kysely<DB>,
    private readonly changes?: LocalChanges,
  ) {}

  /** The administrator who signed up first, if any (the warm-up at start browses as them: warm-up/). */
  firstAdmin(): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('role', '=', 'admin').orderBy('id').limit(1).executeTakeFirst();
  }

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The account behind a session together with the library version, in ONE statement: one round
   * trip on PostgreSQL, one snapshot on both databases. Every signed-in call reads the account
   * anyway (its token version may have moved); the version comes along for the call's cached
   * reads (read-caches/request-versions.ts, decision 0011). Undefined when the account is gone.
   */
  async sessionAccount(id: number): Promise<{ account: SessionAccountRow; libraryVersion: LibraryVersion } | undefined> {
    if (!this.changes) return this.readSession(id);
    // Kept answers stand while neither table changed, through this connection (triggers) or another
    // (data_version): a token revoked, an address confirmed or a version moved is seen at once.
    const now = this.changes.now();
    const kept = this.keptAccounts.get(id);
    const version = this.keptVersion;
    if (kept && version && kept.stamp.data === now.data && kept.stamp.users === now.users && version.stamp.data === now.data && version.stamp.library_state === now.library_state) {
      return kept.account && { account: kept.account, libraryVersion: version.libraryVersion };
    }
    const read = await this.readSession(id);
    // Kept only when nothing moved while it was read (it may have waited for a transaction to end).
    const after = this.changes.now();
    if (after.data === now.data && after.users === now.users && after.library_state === now.library_state) {
      if (this.keptAccounts.size >= MAX_KEPT_ACCOUNTS) this.keptAccounts.clear();
      this.keptAccounts.set(id, { account: read && Object.freeze(read.account), stamp: now });
      if (read) this.keptVersion = { libraryVersion: read.libraryVersion, stamp: now };
    }
    return read;
  }

  /** The session statement itself: on PostgreSQL, the checks of one turn in one statement (auth/batched-session-reads.ts). */
  private async readSession(id: number): Promise<{ account: SessionAccountRow; libraryVersion: LibraryVersion } | undefined> {
    const row = this.changes ? await this.readOneSession(id) : await this.sessionBatches().read(id);
    if (!row) return undefined;
    const { version, reset_version: resetVersion, list_version: listVersion, ...account } = row;
    return { account, libraryVersion: Object.freeze({ version: Number(version), resetVersion: Number(resetVersion), listVersion: Number(listVersion) }) };
  }

  private async readOneSession(id: number): Promise<SessionRow | undefined> {
    // Built and compiled once: Kysely would build and compile the same statement on every call
    // (under the soak, every request), which cost more than running it. Only the id changes.
    if (!this.sessionStatement) {
      this.sessionStatement = this.sessionQuery().where('users.id', '=', ANY_ID).compile();
    }
    const statement = this.sessionStatement;
    const { rows } = await this.db.executeQuery<SessionRow>({ ...statement, parameters: statement.parameters.map((value) => (value === ANY_ID ? id : value)) });
    return rows[0];
  }

  /** PostgreSQL: `users.id = any($1)`, prepared once per connection (db/prepared-statements.ts). */
  private sessionBatches(): BatchedSessionReads<SessionRow> {
    if (!this.batches) {
      const statement = this.sessionQuery().where(sql<boolean>`users.id = any(${ANY_IDS})`).compile();
      prepareOnEachConnection(statement.sql, 'session-accounts');
      this.batches = new BatchedSessionReads<SessionRow>(
        async (ids) =>
          (await this.db.executeQuery<SessionRow>({ ...statement, parameters: statement.parameters.map((value) => (value === ANY_IDS ? ids : value)) })).rows,
        (row) => Number(row.id),
      );
    }
    return this.batches;
  }

  private sessionQuery() {
    return this.db
      .selectFrom(['users', 'library_state'])
      .select([
        'users.id', 'users.role', 'users.username', 'users.email', 'users.email_confirmed_at', 'users.token_version',
        'library_state.version', 'library_state.reset_version', 'library_state.list_version',
      ])
      .where('library_state.id', '=', 1);
  }

  findByEmail(email: string, db: Kysely<DB> = this.db): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /**
   * Creates an account. The first account ever created administers the library (DECISIONS §1);
   * the role is decided inside the INSERT so two simultaneous first sign-ups cannot both win. The
   * admin's address counts as confirmed (decision 0006): it sees every image anyway, and nothing can
   * have been shared before the first account existed.
   */
  async insertFirstIsAdmin(user: Omit<NewUserRow, 'role'>, db: Kysely<DB> = this.db, dialect: DialectName = 'sqlite'): Promise<UserRow> {
    // On PostgreSQL two sign-ups at the same moment would each see an empty table (READ COMMITTED)
    // and both become admin: a transaction-scoped advisory lock makes them take turns (SQLite
    // already runs one writer at a time). Sign-ups are rare and rate-limited; the wait is nothing.
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${FIRST_ACCOUNT_LOCK})`.execute(db);
    const first = sql<boolean>`not exists (select 1 from users)`;
    return db
      .insertInto('users')
      .values({
        ...user,
        role: sql<'admin' | 'user'>`case when ${first} then 'admin' else 'user' end`,
        email_confirmed_at: sql<string | null>`case when ${first} then ${user.created_at} else ${user.email_confirmed_at ?? null} end`,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Marks the account holding `email` confirmed; false when there is none or it already was. */
  async confirmEmail(db: Kysely<DB>, email: string, now: string): Promise<boolean> {
    const result = await db
      .updateTable('users')
      .set({ email_confirmed_at: now, updated_at: now })
      .where('email', '=', email)
      .where('email_confirmed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Takes `email` away from the unconfirmed account holding it (its owner said it is not theirs) and
   * ends that account's sessions. Returns false when no unconfirmed account holds the address.
   */
  async releaseEmail(db: Kysely<DB>, email: string, placeholder: string, now: string): Promise<boolean> {
    const result = await db
      .updateTable('users')
      .set((eb) => ({ email: placeholder, token_version: eb('token_version', '+', 1), updated_at: now }))
      .where('email', '=', email)
      .where('email_confirmed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Which of these addresses belong to confirmed accounts. */
  async confirmedAmong(emails: readonly string[]): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('users')
      .select('email')
      .where('email', 'in', emails)
      .where('email_confirmed_at', 'is not', null)
      .execute();
    return new Set(rows.map((row) => row.email));
  }

  /** Sets the profile image key; returns the key it replaced. */
  async replaceProfileImage(id: number, key: string, now: string): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('users').select('profile_image_key').where('id', '=', id).executeTakeFirst();
      await trx.updateTable('users').set({ profile_image_key: key, updated_at: now }).where('id', '=', id).execute();
      return row?.profile_image_key ?? null;
    });
  }

  async profileImageInUse(key: string): Promise<boolean> {
    return Boolean(await this.db.selectFrom('users').select('id').where('profile_image_key', '=', key).executeTakeFirst());
  }

  async updateUsername(id: number, username: string, now: string): Promise<void> {
    await this.db.updateTable('users').set({ username, updated_at: now }).where('id', '=', id).execute();
  }

  async updatePassword(id: number, passwordHash: string, now: string, db: Kysely<DB> = this.db): Promise<void> {
    await db
      .updateTable('users')
      .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1), updated_at: now }))
      .where('id', '=', id)
      .execute();
  }
}
