import type { Role } from '@photo/contract';
import type { UserRow } from '../db/schema.js';

/** The signed-in person, as every service sees them after the token was checked. */
export interface AuthUser {
  id: number;
  role: Role;
  username: string;
  email: string;
  /**
   * Whether the account has proven it owns `email` (decision 0006). Until it has, shares sent to the
   * address do not reach it: the access layer shows it only its own uploads.
   */
  emailConfirmed: boolean;
}

/** The AuthUser of an account row (after its token, or a URL signed for it, was checked). */
export function toAuthUser(row: Pick<UserRow, 'id' | 'role' | 'username' | 'email' | 'email_confirmed_at'>): AuthUser {
  return { id: row.id, role: row.role, username: row.username, email: row.email, emailConfirmed: row.email_confirmed_at !== null };
}
