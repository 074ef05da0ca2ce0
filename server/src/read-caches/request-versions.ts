import type { Kysely } from 'kysely';
import type { AuthUser } from '../auth/auth-user.js';
import type { DB } from '../db/schema.js';
import { type LibraryVersion, readLibraryVersion } from './library-version.js';
import { keepOn, type Kept } from '../shared/kept-on.js';

const REQUEST_VERSION: unique symbol = Symbol('library version of the request');

/**
 * The library version a request's cached reads are checked against (decision 0011). Checking the
 * session already reads the account on every call; it reads `library_state` in the same statement
 * (`UsersRepository.sessionAccount`) and leaves the version here, keyed by the AuthUser it made for
 * that request. A cached gallery page, tag suggestion or tag filter then costs that one statement
 * — one round trip on PostgreSQL — instead of a second read of the version.
 *
 * Why this is as correct as reading the version again: the version is read before anything it
 * guards, so whatever the request then reads or builds is at least as new as the version it is
 * filed under; a newer version only ever makes an older cached answer miss. It lives in the
 * database, so a change committed by any process is seen by the next request anywhere, and a
 * write is seen by its author's next call. An AuthUser from `authenticate` belongs to one request
 * (a new object each call); any other AuthUser (built for a photo URL, a background job) has no
 * version here and reads it.
 */
export class RequestVersions {
  constructor(private readonly db: Kysely<DB>) {}

  /** The version read together with this person's account, for the request it authenticated (kept on it: shared/kept-on.ts). */
  remember(user: AuthUser, version: LibraryVersion): void {
    keepOn(user, REQUEST_VERSION, version);
  }

  /**
   * The version the person's request started with, or the current one when none was read with the
   * account (or `user` is not a request's AuthUser: a share-link page, a background job).
   */
  async of(user: object): Promise<LibraryVersion> {
    return (user as Kept<object, typeof REQUEST_VERSION, LibraryVersion>)[REQUEST_VERSION] ?? readLibraryVersion(this.db);
  }
}
